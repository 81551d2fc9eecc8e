package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The indexed classifier against its naive twin on random interleavings of (un)subscriptions,
 * FOR_ALL changes and packet-ins: identical classifications, app sets included.
 */
class TopicClassifierProperties {
  static final List<String> APPS = List.of("a", "b", "c", "d", "e");

  /** The core answers UDP to port 53 (any packet can be one, damaged frames too). */
  static final NbiTopic DNS = NbiTopic.parse("udp_dst=53");

  static final ReplyRule REPLY = DNS::matches;

  sealed interface Op {}

  record Subscribe(String app, NbiTopic topic) implements Op {}

  /** Unsubscribes the app's {@code which}-th topic (mod their number), or a random one. */
  record Unsubscribe(String app, int which, NbiTopic other) implements Op {}

  record Unregister(String app) implements Op {}

  record ChangeForAll(NbiTopic topic, boolean add) implements Op {}

  record Classify(PacketInView packet) implements Op {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<String> apps = Arbitraries.of(APPS);
    Arbitrary<NbiTopic> topics = NbiArbitraries.topics();
    Arbitrary<Op> op =
        Arbitraries.frequencyOf(
            Tuple.of(6, Combinators.combine(apps, topics).as(Subscribe::new)),
            Tuple.of(
                2,
                Combinators.combine(apps, Arbitraries.integers().between(0, 9), topics)
                    .as(Unsubscribe::new)),
            Tuple.of(1, apps.map(Unregister::new)),
            Tuple.of(
                1, Combinators.combine(topics, Arbitraries.of(true, false)).as(ChangeForAll::new)),
            Tuple.of(10, NbiArbitraries.packets().map(Classify::new)));
    return op.list().ofMinSize(1).ofMaxSize(60);
  }

  @Property(tries = 400)
  void classifiesAsTheNaiveTwin(@ForAll("ops") List<Op> ops) {
    TopicClassifier fast = new TopicClassifier(REPLY);
    NaiveTopicClassifier naive = new NaiveTopicClassifier(REPLY);
    for (Op op : ops) {
      switch (op) {
        case Subscribe s ->
            assertThat(fast.subscribe(s.app(), s.topic()))
                .isEqualTo(naive.subscribe(s.app(), s.topic()));
        case Unsubscribe u -> {
          List<NbiTopic> mine = new ArrayList<>(naive.topics(u.app()));
          NbiTopic t = mine.isEmpty() ? u.other() : mine.get(u.which() % mine.size());
          assertThat(fast.unsubscribe(u.app(), t)).isEqualTo(naive.unsubscribe(u.app(), t));
        }
        case Unregister r ->
            assertThat(fast.unregister(r.app())).isEqualTo(naive.unregister(r.app()));
        case ChangeForAll f ->
            assertThat(f.add() ? fast.addForAll(f.topic()) : fast.removeForAll(f.topic()))
                .isEqualTo(f.add() ? naive.addForAll(f.topic()) : naive.removeForAll(f.topic()));
        case Classify c -> {
          Classification expected = naive.classify(c.packet());
          assertThat(fast.classify(c.packet())).as("%s", c.packet()).isEqualTo(expected);
          Statistics.label("kind").collect(expected.kind(), expected.apps().size());
        }
      }
    }
  }

  /** Topics cut from packets match them: the generator exercises matches, not just misses. */
  @Property(tries = 300)
  void aTopicCutFromAPacketWithoutNudgesMatchesIt(
      @ForAll("packetAndPicks") Tuple.Tuple2<PacketInView, List<NbiArbitraries.Pick>> pp) {
    List<NbiArbitraries.Pick> exact =
        pp.get2().stream().map(p -> new NbiArbitraries.Pick(p.field(), p.mask(), false)).toList();
    NbiTopic t = NbiArbitraries.topic(pp.get1(), exact);
    boolean allPresent = t.constraints().stream().allMatch(c -> c.field().read(pp.get1()) != null);
    if (allPresent) {
      assertThat(t.matches(pp.get1())).isTrue();
    }
    Statistics.collect(allPresent);
  }

  @Provide
  Arbitrary<Tuple.Tuple2<PacketInView, List<NbiArbitraries.Pick>>> packetAndPicks() {
    Arbitrary<NbiArbitraries.Pick> picks =
        Combinators.combine(
                Arbitraries.integers().between(0, 19),
                Arbitraries.integers().between(0, 3),
                Arbitraries.of(false))
            .as(NbiArbitraries.Pick::new);
    return Combinators.combine(NbiArbitraries.packets(), picks.list().ofMinSize(1).ofMaxSize(4))
        .as(Tuple::of);
  }
}
