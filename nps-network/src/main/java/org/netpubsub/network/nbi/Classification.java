package org.netpubsub.network.nbi;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Where one packet-in goes (EMD Algorithm 1): to every app ({@link Kind#FOR_ALL}), to no app
 * because the core answers it ({@link Kind#REPLY}), or to the apps subscribed to a topic it matches
 * ({@link Kind#TOPIC}; none if nobody subscribed). {@code topics} are the northbound topics that
 * decided it: the FOR_ALL topic it matched first (Algorithm 1 stops there), or every subscribed
 * topic it matches; none for a reply or a broadcast (which matches nothing).
 */
public record Classification(Kind kind, SortedSet<String> apps, Set<NbiTopic> topics) {

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
    if (kind == null || apps == null || topics == null) {
      throw new IllegalArgumentException("a classification has a kind, apps and topics");
    }
    if (kind == Kind.REPLY && (!apps.isEmpty() || !topics.isEmpty())) {
      throw new IllegalArgumentException("a packet-in the core answers goes to no app");
    }
    apps = Collections.unmodifiableSortedSet(new TreeSet<>(apps));
    topics = Collections.unmodifiableSet(new LinkedHashSet<>(topics));
  }

  /** Every app, no topic: a broadcast, which matches nothing. */
  public static Classification forAll(Collection<String> apps) {
    return forAll(apps, Set.of());
  }

  /** Every app, because the packet-in matched the FOR_ALL topic {@code matched}. */
  public static Classification forAll(Collection<String> apps, NbiTopic matched) {
    return forAll(apps, Set.of(matched));
  }

  private static Classification forAll(Collection<String> apps, Set<NbiTopic> topics) {
    return new Classification(Kind.FOR_ALL, new TreeSet<>(apps), topics);
  }

  public static Classification reply() {
    return new Classification(Kind.REPLY, new TreeSet<>(), Set.of());
  }

  /** The apps subscribed to the {@code matched} topics. */
  public static Classification topic(Collection<String> apps, Collection<NbiTopic> matched) {
    return new Classification(Kind.TOPIC, new TreeSet<>(apps), new LinkedHashSet<>(matched));
  }

  /**
   * Algorithm 1 line 28's {@code multi_app}: two or more apps got the packet-in, so their
   * packet-outs may duplicate each other ({@link MultiAppRecord}).
   */
  public boolean multiApp() {
    return apps.size() >= 2;
  }
}
