package org.netpubsub.edge.overlay;

import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.dds.DdsBridge;
import org.netpubsub.edge.dds.DdsDomain;
import org.netpubsub.edge.dds.DdsFrames;
import org.netpubsub.edge.dds.DdsTopics;
import org.netpubsub.edge.dds.DropLog;

/**
 * A DDS site: the domain's DataWriters are publisher entries and its DataReaders subscriber
 * entries, keyed {@code dds/<topic>/<type>/<type hash>} ({@link DdsTopics}); samples travel as
 * their CDR bytes, reliable ones with QoS 1 (NACK repair), best-effort ones with QoS 0; a
 * TRANSIENT_LOCAL writer's last depth samples are replayed to sites that subscribe later. All calls
 * from the bridge come on its one reader thread.
 */
final class DdsSite implements LocalSite, DdsBridge.Listener {
  private static final Logger LOG = Logger.getLogger(DdsSite.class.getName());

  private final DdsDomain domain;
  private final String name;
  private final Listener listener;
  private final Counters counters;
  private final Set<String> reported = new HashSet<>(); // DDS topic names in conflict, logged
  // key -> history depth of its local TRANSIENT_LOCAL (or stronger) writers
  private final Map<String, Integer> durable = new ConcurrentHashMap<>();
  private volatile DdsBridge bridge;
  private final DropLog drops = new DropLog(60_000, 1024); // the bridge's reader thread only

  DdsSite(DdsDomain domain, String name, Listener listener, Counters counters) {
    this.domain = domain;
    this.name = name;
    this.listener = listener;
    this.counters = counters;
  }

  @Override
  public void connect() throws IOException {
    bridge = DdsBridge.start(domain, name, this);
  }

  @Override
  public void publish(EdgeMessage m) throws IOException {
    if (DdsTopics.parse(m.topic()).isEmpty()) {
      counters.drop("dds_not_a_dds_topic"); // e.g. an MQTT site's topic a wildcard would pull in
      return;
    }
    bridge.write(new DdsFrames.Sample(m.topic(), m.qos() >= 1, m.payload()));
  }

  @Override
  public void endpoint(DdsFrames.Endpoint e) {
    if (DdsTopics.parse(e.key()).isEmpty()) {
      counters.drop("dds_bad_key");
      return;
    }
    LOG.info(
        () ->
            (e.present() ? "local " : "no more local ")
                + (e.role().equals("pub") ? "writers" : "readers")
                + " on "
                + e.key()
                + (e.present()
                    ? " (reliable "
                        + e.reliable()
                        + ", "
                        + e.durability()
                        + ", deadline "
                        + e.deadlineMillis()
                        + " ms, depth "
                        + e.depth()
                        + ")"
                    : ""));
    if (e.role().equals("pub")) {
      if (e.present() && !e.durability().equals("volatile")) {
        durable.put(e.key(), e.depth() < 0 ? Integer.MAX_VALUE : e.depth()); // -1: KEEP_ALL
      } else {
        durable.remove(e.key());
      }
      listener.onPublisher(e.key(), e.present());
    } else {
      listener.onSubscriber(e.key(), e.present());
    }
  }

  @Override
  public void sample(DdsFrames.Sample s) {
    if (DdsTopics.parse(s.key()).isEmpty()) {
      counters.drop("dds_bad_key");
      return;
    }
    listener.onMessage(s.key(), new Message(s.cdr(), s.reliable() ? 1 : 0, false));
  }

  @Override
  public void dropped(String reason) {
    counters.drop(reason);
  }

  /** Counted; logged once per DDS topic and reason, then at most once a minute with a count. */
  @Override
  public void droppedSample(String reason, String key) {
    counters.drop(reason);
    String topic = DdsTopics.parse(key).map(DdsTopics.Key::topic).orElse("?");
    drops
        .dropped(reason, topic, System.currentTimeMillis())
        .ifPresent(
            l ->
                LOG.warning(
                    "DDS samples from other sites on topic '"
                        + l.topic()
                        + "' dropped ("
                        + l.reason()
                        + "): "
                        + l.count()
                        + (l.count() == 1 ? "" : " since the last such line")
                        + ", e.g. key "
                        + key));
  }

  @Override
  public int durableDepth(String topic) {
    return durable.getOrDefault(topic, 0);
  }

  @Override
  public boolean needsIndex() {
    return true;
  }

  /** One warning and one count per DDS topic name found with another type at another site. */
  @Override
  public void checkTree(Set<String> treeTopics, Set<String> localTopics) {
    for (String key : DdsTopics.conflicts(localTopics, treeTopics)) {
      String topic = DdsTopics.parse(key).orElseThrow().topic();
      synchronized (reported) {
        if (!reported.add(topic)) {
          continue;
        }
      }
      counters.add("dds_type_conflicts");
      LOG.warning(
          "DDS topic '"
              + topic
              + "' has another type at another site than "
              + key
              + ": not bridged between them");
    }
  }

  @Override
  public void close() {
    DdsBridge b = bridge;
    if (b != null) {
      b.close();
    }
  }
}
