package org.netpubsub.edge.overlay;

import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.dds.DdsBridge;
import org.netpubsub.edge.dds.DdsDomain;
import org.netpubsub.edge.dds.DdsFrames;
import org.netpubsub.edge.dds.DdsTopics;
import org.netpubsub.edge.dds.DropLog;
import org.netpubsub.edge.dds.MqttOpaque;

/**
 * A DDS site: the domain's DataWriters are publisher entries and its DataReaders subscriber
 * entries, keyed {@code dds/<topic>/<type>/<type hash>} ({@link DdsTopics}); samples travel as
 * their CDR bytes, reliable ones with QoS 1 (NACK repair), best-effort ones with QoS 0; a
 * TRANSIENT_LOCAL writer's last depth samples are replayed to sites that subscribe later; the
 * shortest DEADLINE of a key's readers (writers) is its run-time deadline at the edge. A reader of
 * the opaque type ({@link MqttOpaque}) also subscribes to the MQTT topic of its name, whose
 * messages it receives encoded as that type. All calls from the bridge come on its one reader
 * thread.
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
  // MQTT topic -> the keys of local readers of the opaque type named so (read on any thread)
  private final Map<String, Set<String>> opaque = new ConcurrentHashMap<>();

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
    if (DdsTopics.parse(m.topic()).isPresent()) {
      bridge.write(new DdsFrames.Sample(m.topic(), m.qos() >= 1, m.payload()));
      return;
    }
    Set<String> keys = opaque.getOrDefault(m.topic(), Set.of());
    if (keys.isEmpty()) {
      counters.drop("dds_not_a_dds_topic"); // e.g. an MQTT site's topic no reader here names
      return;
    }
    byte[] cdr = MqttOpaque.cdr(m.payload());
    for (String key : keys) {
      bridge.write(new DdsFrames.Sample(key, m.qos() >= 1, cdr));
    }
    counters.add("dds_from_mqtt");
  }

  @Override
  public void endpoint(DdsFrames.Endpoint e) {
    Optional<DdsTopics.Key> k = DdsTopics.parse(e.key());
    if (k.isEmpty()) {
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
      if (k.get().typeName().equals(MqttOpaque.TYPE_NAME)) {
        opaqueReaders(k.get(), e.key(), e.present());
      }
    }
    listener.onDeadline(
        e.key(),
        e.role().equals("pub") ? DeadlineTable.Side.WRITERS : DeadlineTable.Side.READERS,
        e.present() ? e.deadlineMillis() : null);
  }

  /**
   * Local readers of the opaque type on {@code key} came or went: the edge subscribes to the MQTT
   * topic of the same name while one is there; a name MQTT cannot take is counted and logged once.
   */
  private void opaqueReaders(DdsTopics.Key k, String key, boolean present) {
    Optional<String> refused = MqttOpaque.refusal(k.topic());
    if (refused.isPresent()) {
      if (!present) {
        return; // counted when it came
      }
      counters.drop("dds_opaque_bad_name");
      drops
          .dropped("opaque_bad_name", k.topic(), System.currentTimeMillis())
          .ifPresent(
              l ->
                  LOG.warning(
                      "DDS topic '"
                          + k.topic()
                          + "' of "
                          + MqttOpaque.TYPE_NAME
                          + " is no MQTT topic ("
                          + refused.get()
                          + "): it receives nothing from MQTT sites"));
      return;
    }
    String topic = k.topic();
    Set<String> keys = new HashSet<>(opaque.getOrDefault(topic, Set.of()));
    boolean had = !keys.isEmpty();
    if (present) {
      keys.add(key);
    } else {
      keys.remove(key);
    }
    if (keys.isEmpty()) {
      opaque.remove(topic);
    } else {
      opaque.put(topic, Set.copyOf(keys));
    }
    if (had != !keys.isEmpty()) {
      listener.onSubscriber(topic, !had);
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
