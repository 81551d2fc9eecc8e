package org.netpubsub.edge.broker;

import java.util.Arrays;
import java.util.Objects;

/**
 * One MQTT message between edges: where it was published ({@code origin} edge), its sequence number
 * per (origin, topic), topic, payload, QoS (0–2, as published) and retain flag.
 */
public record EdgeMessage(
    String origin, long sequence, String topic, byte[] payload, int qos, boolean retain) {
  public EdgeMessage {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(payload, "payload");
    if (qos < 0 || qos > 2) {
      throw new IllegalArgumentException("qos must be 0, 1 or 2, not " + qos);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EdgeMessage m
        && origin.equals(m.origin)
        && sequence == m.sequence
        && topic.equals(m.topic)
        && Arrays.equals(payload, m.payload)
        && qos == m.qos
        && retain == m.retain;
  }

  @Override
  public int hashCode() {
    return Objects.hash(origin, sequence, topic, Arrays.hashCode(payload), qos, retain);
  }

  @Override
  public String toString() {
    return "EdgeMessage[origin="
        + origin
        + ", sequence="
        + sequence
        + ", topic="
        + topic
        + ", payload="
        + payload.length
        + " bytes, qos="
        + qos
        + ", retain="
        + retain
        + "]";
  }
}
