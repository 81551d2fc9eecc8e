package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The subscribed topics, indexed so that a packet-in is compared only with topics it may match.
 * Each topic sits in one bucket, keyed by one of its constraints: (field, mask) → masked value. For
 * a packet the index reads each (field, mask) in use once and looks its value up, then checks the
 * few topics found in full. Topics without constraints are kept aside and always match.
 *
 * <p>A topic's bucket is chosen when it is first subscribed: the constraint whose bucket is then
 * smallest, ties broken by {@link TopicField#selectivity} — so a popular constraint (everyone wants
 * eth_type=0x86dd) does not pile every topic into one bucket.
 */
final class TopicIndex {
  /** What the index reads from a packet: a field under a mask. */
  private record Dimension(TopicField field, FieldValue mask) {}

  /** One distinct topic, the apps subscribed to it, and its bucket. */
  private static final class Entry {
    final NbiTopic topic;
    final Set<String> apps = new LinkedHashSet<>();
    final Dimension dimension;
    final FieldValue key;

    Entry(NbiTopic topic, Dimension dimension, FieldValue key) {
      this.topic = topic;
      this.dimension = dimension;
      this.key = key;
    }
  }

  private final Map<NbiTopic, Entry> entries = new HashMap<>();
  private final Map<Dimension, Map<FieldValue, List<Entry>>> buckets = new HashMap<>();
  private final List<Entry> unconstrained = new ArrayList<>();

  /** Subscribes {@code app}; false if it already was. */
  boolean add(String app, NbiTopic topic) {
    Entry e = entries.get(topic);
    if (e == null) {
      e = place(topic);
      entries.put(topic, e);
    }
    return e.apps.add(app);
  }

  private Entry place(NbiTopic topic) {
    if (topic.isAny()) {
      Entry e = new Entry(topic, null, null);
      unconstrained.add(e);
      return e;
    }
    FieldConstraint best = null;
    int bestSize = Integer.MAX_VALUE;
    int bestSelectivity = -1;
    for (FieldConstraint c : topic.constraints()) {
      int size = bucket(new Dimension(c.field(), c.mask()), c.value()).size();
      int selectivity = c.field().selectivity(c.mask());
      if (size < bestSize || (size == bestSize && selectivity > bestSelectivity)) {
        best = c;
        bestSize = size;
        bestSelectivity = selectivity;
      }
    }
    Dimension d = new Dimension(best.field(), best.mask());
    Entry e = new Entry(topic, d, best.value());
    buckets
        .computeIfAbsent(d, k -> new HashMap<>())
        .computeIfAbsent(e.key, k -> new ArrayList<>())
        .add(e);
    return e;
  }

  private List<Entry> bucket(Dimension d, FieldValue key) {
    Map<FieldValue, List<Entry>> byValue = buckets.get(d);
    List<Entry> list = byValue == null ? null : byValue.get(key);
    return list == null ? List.of() : list;
  }

  /** Unsubscribes {@code app}; false if it was not subscribed. */
  boolean remove(String app, NbiTopic topic) {
    Entry e = entries.get(topic);
    if (e == null || !e.apps.remove(app)) {
      return false;
    }
    if (e.apps.isEmpty()) {
      entries.remove(topic);
      if (e.dimension == null) {
        unconstrained.remove(e);
      } else {
        Map<FieldValue, List<Entry>> byValue = buckets.get(e.dimension);
        List<Entry> list = byValue.get(e.key);
        list.remove(e);
        if (list.isEmpty()) { // drop empty buckets, so packets never read dimensions nobody uses
          byValue.remove(e.key);
          if (byValue.isEmpty()) {
            buckets.remove(e.dimension);
          }
        }
      }
    }
    return true;
  }

  /**
   * Adds to {@code topics} every subscribed topic the packet matches, and to {@code apps} every app
   * subscribed to one of them.
   */
  void collect(PacketInView packet, Set<String> apps, Collection<NbiTopic> topics) {
    for (Entry e : unconstrained) {
      apps.addAll(e.apps);
      topics.add(e.topic);
    }
    for (Map.Entry<Dimension, Map<FieldValue, List<Entry>>> d : buckets.entrySet()) {
      FieldValue v = d.getKey().field().read(packet);
      if (v == null) {
        continue;
      }
      List<Entry> candidates = d.getValue().get(v.and(d.getKey().mask()));
      if (candidates == null) {
        continue;
      }
      for (Entry e : candidates) {
        if (e.topic.matches(packet)) {
          apps.addAll(e.apps);
          topics.add(e.topic);
        }
      }
    }
  }

  /** The number of distinct topics subscribed. */
  int size() {
    return entries.size();
  }

  /** The most topics in one bucket: how many a packet may be checked against per lookup. */
  int largestBucket() {
    int max = 0;
    for (Map<FieldValue, List<Entry>> byValue : buckets.values()) {
      for (List<Entry> list : byValue.values()) {
        max = Math.max(max, list.size());
      }
    }
    return max;
  }

  /** The number of (field, mask) pairs a packet is looked up by: the cost of one classification. */
  int dimensions() {
    return buckets.size();
  }
}
