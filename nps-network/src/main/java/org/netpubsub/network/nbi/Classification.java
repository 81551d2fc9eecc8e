package org.netpubsub.network.nbi;

import java.util.Collection;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Where one packet-in goes (EMD Algorithm 1): to every app ({@link Kind#FOR_ALL}), to no app
 * because the core answers it ({@link Kind#REPLY}), or to the apps subscribed to a topic it matches
 * ({@link Kind#TOPIC}; none if nobody subscribed).
 */
public record Classification(Kind kind, SortedSet<String> apps) {

  /** Which branch of Algorithm 1 the packet-in took. */
  public enum Kind {
    /** Matched a FOR_ALL topic (lines 9–11): every registered app gets it. */
    FOR_ALL,
    /** The core answers it (lines 14–19); no app gets it. */
    REPLY,
    /** Sent to the apps whose topics it matches (lines 20–26). */
    TOPIC
  }

  public Classification {
    if (kind == null || apps == null) {
      throw new IllegalArgumentException("a classification has a kind and apps");
    }
    if (kind == Kind.REPLY && !apps.isEmpty()) {
      throw new IllegalArgumentException("a packet-in the core answers goes to no app");
    }
    apps = Collections.unmodifiableSortedSet(new TreeSet<>(apps));
  }

  public static Classification forAll(Collection<String> apps) {
    return new Classification(Kind.FOR_ALL, new TreeSet<>(apps));
  }

  public static Classification reply() {
    return new Classification(Kind.REPLY, new TreeSet<>());
  }

  public static Classification topic(Collection<String> apps) {
    return new Classification(Kind.TOPIC, new TreeSet<>(apps));
  }

  /**
   * Algorithm 1 line 28's {@code multi_app}: two or more apps got the packet-in, so their
   * packet-outs may duplicate each other ({@link MultiAppRecord}).
   */
  public boolean multiApp() {
    return apps.size() >= 2;
  }
}
