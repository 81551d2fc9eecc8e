package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link MergedTopics} against its naive twin, the union of all current parts merged anew (what the
 * tree's rebuild did before): after every random put, remove and retain, the views are equal.
 */
class MergedTopicsProperties {
  sealed interface Op {}

  /** Part {@code key} now holds its topic (or none: the topic does not exist) at a version. */
  record Put(String key, boolean present, int version, int malformed) implements Op {}

  record Remove(String key) implements Op {}

  record Retain(Set<String> keys) implements Op {}

  private static final List<String> KEYS = List.of("a", "b", "c", "d", "e");

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<String> key = Arbitraries.of(KEYS);
    Arbitrary<Op> put =
        net.jqwik.api.Combinators.combine(
                key,
                Arbitraries.of(true, true, false),
                Arbitraries.integers().between(0, 9),
                Arbitraries.integers().between(0, 2))
            .as((k, present, v, m) -> (Op) new Put(k, present, v, m));
    Arbitrary<Op> remove = key.map(Remove::new);
    Arbitrary<Op> retain = Arbitraries.of(KEYS).set().ofMaxSize(4).map(Retain::new);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(5, put),
            net.jqwik.api.Tuple.of(2, remove),
            net.jqwik.api.Tuple.of(1, retain))
        .list()
        .ofMaxSize(40);
  }

  @Property(tries = 300)
  void equalsMergingEveryPartAnew(@ForAll("ops") List<Op> ops) {
    MergedTopics merged = new MergedTopics();
    Map<String, OverlayView> twin = new HashMap<>();
    OverlayView brokers =
        new OverlayView(
            new TreeMap<>(),
            new TreeMap<>(
                Map.of("rb1", new BrokerInfo(new java.net.InetSocketAddress("127.0.0.1", 1), 0))),
            1);
    for (Op op : ops) {
      switch (op) {
        case Put p -> {
          OverlayView part = part(p);
          merged.put(p.key(), part);
          twin.put(p.key(), part);
        }
        case Remove r -> {
          merged.remove(r.key());
          twin.remove(r.key());
        }
        case Retain r -> {
          merged.retain(r.keys());
          twin.keySet().retainAll(r.keys());
        }
      }
      assertThat(merged.view(brokers)).isEqualTo(naive(brokers, twin));
    }
  }

  /** A topic cache's part: the key's topic, if it exists, and the nodes that did not parse. */
  private static OverlayView part(Put p) {
    TreeMap<String, TopicState> topics = new TreeMap<>();
    if (p.present()) {
      topics.put(p.key(), new TopicState(Optional.empty(), p.version(), Map.of(), Map.of()));
    }
    return new OverlayView(topics, new TreeMap<>(), p.malformed());
  }

  private static OverlayView naive(OverlayView brokerPart, Map<String, OverlayView> parts) {
    TreeMap<String, TopicState> all = new TreeMap<>();
    int malformed = brokerPart.malformed();
    for (OverlayView p : parts.values()) {
      all.putAll(p.topics());
      malformed += p.malformed();
    }
    return new OverlayView(all, brokerPart.brokers(), malformed);
  }
}
