package org.netpubsub.edge.overlay;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.dds.DdsBridge;
import org.netpubsub.edge.dds.DdsDomain;
import org.netpubsub.edge.dds.DdsFrames;
import org.netpubsub.edge.dds.DdsStamp;
import org.netpubsub.edge.dds.DdsTopics;
import org.netpubsub.edge.dds.DropLog;
import org.netpubsub.edge.dds.MqttOpaque;

/**
 * A DDS site: the domain's DataWriters are publisher entries and its DataReaders subscriber
 * entries, keyed {@code dds/<topic>/<type>/<type hash>} ({@link DdsTopics}); samples travel as
 * their CDR bytes, reliable ones with QoS 1 (NACK repair), best-effort ones with QoS 0; a
 * TRANSIENT_LOCAL writer's last depth samples are replayed to sites that subscribe later; the
 * shortest DEADLINE of a key's readers (writers) is its run-time deadline at the edge. Endpoints of
 * the opaque type ({@link MqttOpaque}) named like an MQTT topic live on that MQTT topic instead:
 * readers subscribe to it and receive its messages encoded as the type, writers' samples are
 * published there as their bare payloads, and their deadlines and durability are the MQTT topic's
 * (the key's entries stay, so that a type conflict is still found, but nothing travels on it). All
 * calls from the bridge come on its one reader thread.
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
  // role ("pub", "sub") -> MQTT topic -> the keys of local endpoints of the opaque type named so
  // (read on any thread)
  private final Map<String, Map<String, Set<String>>> opaque =
      Map.of("pub", new ConcurrentHashMap<>(), "sub", new ConcurrentHashMap<>());
  // role -> key of the opaque type -> the shortest deadline of its local endpoints, if any
  private final Map<String, Map<String, Long>> opaqueDeadlines =
      Map.of("pub", new HashMap<>(), "sub", new HashMap<>());

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
    Set<String> keys = opaque.get("sub").getOrDefault(m.topic(), Set.of());
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
    Optional<String> mqtt =
        k.get().typeName().equals(MqttOpaque.TYPE_NAME)
            ? mqttTopic(k.get(), e.present())
            : Optional.empty();
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
    if (mqtt.isPresent()) {
      opaqueEndpoints(e, mqtt.get());
    } else {
      listener.onDeadline(e.key(), side(e.role()), e.present() ? e.deadlineMillis() : null);
    }
  }

  private static DeadlineTable.Side side(String role) {
    return role.equals("pub") ? DeadlineTable.Side.WRITERS : DeadlineTable.Side.READERS;
  }

  /**
   * Local endpoints of the opaque type on an MQTT topic came, changed or went: the edge subscribes
   * to (publishes) the MQTT topic while a reader (writer) is there, with the shortest deadline of
   * them all.
   */
  private void opaqueEndpoints(DdsFrames.Endpoint e, String topic) {
    Map<String, Set<String>> byTopic = opaque.get(e.role());
    Map<String, Long> deadlines = opaqueDeadlines.get(e.role());
    Set<String> keys = new HashSet<>(byTopic.getOrDefault(topic, Set.of()));
    boolean had = !keys.isEmpty();
    Long before = shortest(keys, deadlines);
    deadlines.remove(e.key());
    if (e.present()) {
      keys.add(e.key());
      if (e.deadlineMillis() != null) {
        deadlines.put(e.key(), e.deadlineMillis());
      }
    } else {
      keys.remove(e.key());
    }
    if (keys.isEmpty()) {
      byTopic.remove(topic);
    } else {
      byTopic.put(topic, Set.copyOf(keys));
    }
    if (had != !keys.isEmpty()) {
      if (e.role().equals("pub")) {
        listener.onPublisher(topic, !had);
      } else {
        listener.onSubscriber(topic, !had);
      }
    }
    Long after = shortest(keys, deadlines);
    if (!Objects.equals(before, after)) {
      listener.onDeadline(topic, side(e.role()), after);
    }
  }

  private static Long shortest(Set<String> keys, Map<String, Long> deadlines) {
    return keys.stream()
        .map(deadlines::get)
        .filter(Objects::nonNull)
        .min(Long::compare)
        .orElse(null);
  }

  /**
   * The MQTT topic of an endpoint of the opaque type: its DDS topic name, unless MQTT cannot take
   * it (counted and logged once when such an endpoint comes; it is then bridged as any DDS type).
   */
  private Optional<String> mqttTopic(DdsTopics.Key k, boolean present) {
    Optional<String> refused = MqttOpaque.refusal(k.topic());
    if (refused.isPresent()) {
      if (!present) {
        return Optional.empty(); // counted when it came
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
                          + "): it is bridged only to DDS sites"));
      return Optional.empty();
    }
    return Optional.of(k.topic());
  }

  @Override
  public void sample(DdsFrames.Sample s) {
    Optional<DdsTopics.Key> k = DdsTopics.parse(s.key());
    if (k.isEmpty()) {
      counters.drop("dds_bad_key");
      return;
    }
    int qos = s.reliable() ? 1 : 0;
    if (k.get().typeName().equals(MqttOpaque.TYPE_NAME)
        && MqttOpaque.refusal(k.get().topic()).isEmpty()) {
      byte[] payload;
      try {
        payload = MqttOpaque.payload(DdsStamp.cdr(s.cdr()));
      } catch (IllegalArgumentException e) {
        counters.drop("dds_opaque_malformed");
        drops
            .dropped("opaque_malformed", k.get().topic(), System.currentTimeMillis())
            .ifPresent(
                l ->
                    LOG.warning(
                        "samples of "
                            + MqttOpaque.TYPE_NAME
                            + " on DDS topic '"
                            + l.topic()
                            + "' dropped ("
                            + e.getMessage()
                            + "): "
                            + l.count()
                            + (l.count() == 1 ? "" : " since the last such line")));
        return;
      }
      counters.add("dds_to_mqtt"); // the bare payload on the MQTT topic, and not on the key
      listener.onMessage(k.get().topic(), new Message(payload, qos, false));
      return;
    }
    listener.onMessage(s.key(), new Message(s.cdr(), qos, false));
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
    Integer depth = durable.get(topic);
    if (depth != null) {
      return depth;
    }
    int deepest = 0; // an MQTT topic: its local TRANSIENT_LOCAL writers of the opaque type
    for (String key : opaque.get("pub").getOrDefault(topic, Set.of())) {
      deepest = Math.max(deepest, durable.getOrDefault(key, 0));
    }
    return deepest;
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
