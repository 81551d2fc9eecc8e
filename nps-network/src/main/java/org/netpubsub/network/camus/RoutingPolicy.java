package org.netpubsub.network.camus;

import java.util.Locale;

/**
 * Camus's two routing policies (§4), which differ only in the filter set of the logical up port
 * F_up^s: memory reduction sends everything up, traffic reduction only what some host beyond the
 * switch wants.
 */
public enum RoutingPolicy {
  /** MR: F_up^s = {true}; down ports exact, so switches hold only the filters below them. */
  MR,
  /** TR: F_up^s = the filters of every host not below s; every switch holds every filter. */
  TR;

  /** {@code mr} or {@code tr}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static RoutingPolicy parse(String label) {
    for (RoutingPolicy p : values()) {
      if (p.label().equalsIgnoreCase(label)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown routing policy '" + label + "' (use mr or tr)");
  }
}
