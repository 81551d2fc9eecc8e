package org.netpubsub.edge.coordinator;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An AMQP exchange local clients declared at an edge (SNAPS §II-C 2a): the coordinator has every
 * other AMQP edge declare it too (2b). Names and types are AMQP short strings (1–255 bytes).
 */
public record Exchange(String name, String type, boolean durable) {
  public Exchange {
    check(name, "exchange name");
    check(type, "exchange type");
    if (name.startsWith("amq.")) {
      throw new IllegalArgumentException("exchange '" + name + "': amq.* names are the broker's");
    }
  }

  static String check(String s, String what) {
    Objects.requireNonNull(s, what);
    int n = s.getBytes(StandardCharsets.UTF_8).length;
    if (n < 1 || n > 255 || s.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(what + " must be 1–255 bytes of UTF-8, not '" + s + "'");
    }
    return s;
  }
}
