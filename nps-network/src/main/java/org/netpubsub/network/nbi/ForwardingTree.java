package org.netpubsub.network.nbi;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * EMD's FT[dst] (Algorithm 2): for one destination, the output port of every switch that has a
 * rule, and the reverse edges — which switches' rules lead into a switch over a live link — so that
 * removing a rule can tell at once whether anyone still forwards into it.
 */
final class ForwardingTree {
  /** The switch a port's link leads to, or null (no link, or a link back to the same switch). */
  @FunctionalInterface
  interface NextSwitch {
    Long of(long dpid, long port);
  }

  private final Map<Long, Long> outPort = new HashMap<>();
  private final Map<Long, Set<Long>> upstream = new HashMap<>();

  /** The rule's output port at a switch, or null. */
  Long outPort(long dpid) {
    return outPort.get(dpid);
  }

  Map<Long, Long> rules() {
    return outPort;
  }

  boolean isEmpty() {
    return outPort.isEmpty();
  }

  /** The switches whose rules lead into {@code dpid}. */
  Set<Long> upstream(long dpid) {
    return upstream.getOrDefault(dpid, Set.of());
  }

  /** /** Sets or (port null) removes the rule at a switch. */
  void set(long dpid, Long port, NextSwitch next) {
    Long old = port == null ? outPort.remove(dpid) : outPort.put(dpid, port);
    if (old != null) {
      unlink(dpid, next.of(dpid, old));
    }
    if (port != null) {
      link(dpid, next.of(dpid, port));
    }
  }

  /** Recomputes the reverse edges after the links changed. */
  void relink(NextSwitch next) {
    upstream.clear();
    outPort.forEach((dpid, port) -> link(dpid, next.of(dpid, port)));
  }

  private void link(long from, Long to) {
    if (to != null) {
      upstream.computeIfAbsent(to, k -> new HashSet<>()).add(from);
    }
  }

  private void unlink(long from, Long to) {
    Set<Long> s = to == null ? null : upstream.get(to);
    if (s != null && s.remove(from) && s.isEmpty()) {
      upstream.remove(to);
    }
  }
}
