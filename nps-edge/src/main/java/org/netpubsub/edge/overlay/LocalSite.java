package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.Set;
import org.netpubsub.edge.broker.EdgeMessage;

/**
 * The site an edge broker fronts: an unmodified MQTT broker ({@link MqttSite}) or a DDS domain
 * ({@link DdsSite}). It tells the edge broker what local clients publish and which topics they
 * publish or subscribe to, and publishes what other sites sent.
 */
interface LocalSite extends Closeable {
  /** A message published at the site: QoS ≥ 1 is reliable (NACK repair); never our own. */
  record Message(byte[] payload, int qos, boolean retained) {}

  /** What a site hands the edge broker; calls may come from the site's own threads. */
  interface Listener {
    void onMessage(String topic, Message message);

    /** A topic (or, for MQTT, a filter) gained or lost its local subscribers. */
    void onSubscriber(String topic, boolean present);

    /** A topic gained or lost its declared local publishers (DDS DataWriters; MQTT has none). */
    void onPublisher(String topic, boolean present);

    /**
     * The deadline (ms) a topic's local readers request or its writers offer (DDS DEADLINE QoS: the
     * shortest of them), or none any more ({@code null}).
     */
    default void onDeadline(String topic, DeadlineTable.Side side, Long millis) {}
  }

  void connect() throws Exception;

  void publish(EdgeMessage m) throws Exception;

  /**
   * Whether this site needs the tree's whole topic index (as wildcard filters do), and, given it
   * and the site's own topics, reports what only this kind of site can tell (DDS: a topic name used
   * with another type elsewhere).
   */
  default boolean needsIndex() {
    return false;
  }

  /**
   * How many of a topic's last reliable messages its local publishers want a late-joining site to
   * receive (DDS: a TRANSIENT_LOCAL DataWriter's history depth); --durable applies beside it.
   */
  default int durableDepth(String topic) {
    return 0;
  }

  default void checkTree(Set<String> treeTopics, Set<String> localTopics) {}

  @Override
  void close();
}
