package org.netpubsub.compiler.itch;

import java.util.Locale;

/**
 * Where messages other than Add Orders go. Filters are written over Add Order fields, which other
 * messages lack, so by default they match no filter and are dropped; a deployment whose subscribers
 * keep order books (executions, cancels, deletes, system events) sends them to every port instead.
 */
public enum OtherMessages {
  /** To no port (the default: they match no filter). */
  DROP,
  /** To every port that any rule forwards to. */
  ALL_PORTS;

  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static OtherMessages parse(String label) {
    for (OtherMessages o : values()) {
      if (o.label().equals(label)) {
        return o;
      }
    }
    throw new IllegalArgumentException(
        "unknown policy for other messages '" + label + "' (use drop or all-ports)");
  }
}
