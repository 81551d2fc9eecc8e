package org.netpubsub.edge.overlay;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which local topics also take the direct edge-to-edge path (§2.4.2): those with a deadline, up to
 * {@code max} of them, first come; counted as admitted or refused once per topic. A topic's
 * deadline may come and go while the edge runs (DDS endpoints): one that lost it leaves the path at
 * its next message (freeing its place), and a refused one is decided anew once it had none.
 * Thread-safe.
 */
final class DirectAdmission {
  private final Predicate<String> hasDeadline;
  private final int max;
  private final Counters counters;
  private final Set<String> direct = ConcurrentHashMap.newKeySet();
  private final Set<String> refused = ConcurrentHashMap.newKeySet();

  DirectAdmission(Predicate<String> hasDeadline, int max, Counters counters) {
    this.hasDeadline = hasDeadline;
    this.max = max;
    this.counters = counters;
  }

  /** Whether {@code topic} takes the direct path; decided at its first message. */
  synchronized boolean admit(String topic) {
    boolean wanted = hasDeadline.test(topic);
    if (direct.contains(topic)) {
      if (!wanted) {
        direct.remove(topic);
        counters.add("direct_released");
      }
      return wanted;
    }
    if (!wanted) {
      refused.remove(topic);
      return false;
    }
    if (refused.contains(topic)) {
      return false;
    }
    if (direct.size() < max) {
      direct.add(topic);
      counters.add("direct_admitted");
      return true;
    }
    refused.add(topic);
    counters.add("direct_refused");
    return false;
  }

  /** Whether {@code topic} was admitted (never decides). */
  boolean admitted(String topic) {
    return direct.contains(topic);
  }
}
