package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The leader's {@link Reconciler} with the topic-count strategy against a naive twin (a loop over
 * brokers per orphaned topic), for random sequences of broker joins and deaths and topic arrivals
 * and departures: the same assignments after every step, every topic on a live broker, and balance
 * within one topic while brokers only die.
 */
class AssignmentProperties {
  sealed interface Op {}

  record Join(int broker) implements Op {}

  record Die(int broker) implements Op {}

  record AddTopic(int topic) implements Op {}

  record RemoveTopic(int topic) implements Op {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> op =
        Arbitraries.oneOf(
            Arbitraries.integers().between(0, 5).map(Join::new),
            Arbitraries.integers().between(0, 5).map(Die::new),
            Arbitraries.integers().between(0, 30).map(AddTopic::new),
            Arbitraries.integers().between(0, 30).map(AddTopic::new),
            Arbitraries.integers().between(0, 30).map(RemoveTopic::new));
    return op.list().ofMaxSize(60);
  }

  @Property(tries = 300)
  void reconcilerMatchesTheNaiveTwin(@ForAll("ops") List<Op> ops) {
    Tree tree = new Tree();
    Map<String, String> naive = new TreeMap<>();
    for (Op op : ops) {
      tree.apply(op);
      switch (op) {
        case Join j -> {}
        case Die d -> naive.values().removeIf(b -> b.equals(name(d.broker())));
        case AddTopic a -> {}
        case RemoveTopic r -> naive.remove(topic(r.topic()));
      }
      for (Assignment.Change c : Reconciler.plan(tree.view(), AssignmentStrategy.TOPIC_COUNT)) {
        tree.assigned.put(c.topic(), c.after());
      }
      naiveAssign(naive, tree.brokers, tree.topics);
      Map<String, String> actual = new TreeMap<>();
      tree.topics.forEach(
          t -> {
            Assignment a = tree.assigned.get(t);
            if (a != null && tree.brokers.contains(a.broker())) {
              actual.put(t, a.broker());
            }
          });
      assertThat(actual).as("after %s", op).isEqualTo(naive);
      if (!tree.brokers.isEmpty()) {
        assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(tree.topics);
      }
    }
  }

  @Property(tries = 200)
  void balancedWithinOneTopicWhileBrokersOnlyDie(
      @ForAll("deaths") List<Integer> deaths, @ForAll("topicCounts") int topics) {
    Tree tree = new Tree();
    for (int b = 0; b < 6; b++) {
      tree.apply(new Join(b));
    }
    for (int t = 0; t < topics; t++) {
      tree.apply(new AddTopic(t));
      apply(tree);
    }
    for (int d : deaths) {
      tree.apply(new Die(d));
      apply(tree);
      Map<String, Integer> counts = Reconciler.topicCounts(tree.view());
      if (!counts.isEmpty()) {
        int max = counts.values().stream().mapToInt(i -> i).max().orElseThrow();
        int min = counts.values().stream().mapToInt(i -> i).min().orElseThrow();
        assertThat(max - min).as("counts %s", counts).isLessThanOrEqualTo(1);
        assertThat(counts.values().stream().mapToInt(i -> i).sum()).isEqualTo(topics);
      }
    }
  }

  /**
   * Brokers that join a running overlay get their share: rebalancing in steps of a few moves ends
   * within the tolerance, every move takes a topic from a broker holding more than its target
   * (never making the spread worse), no topic is lost, and a balanced overlay moves nothing.
   */
  @Property(tries = 200)
  void rebalancingGivesJoiningBrokersTheirShare(
      @ForAll("topicCounts") int topics,
      @ForAll("brokerCounts") int first,
      @ForAll("brokerCounts") int joining,
      @ForAll("moveBudgets") int maxMoves) {
    Tree tree = new Tree();
    for (int b = 0; b < first; b++) {
      tree.apply(new Join(b));
    }
    for (int t = 0; t < topics; t++) {
      tree.apply(new AddTopic(t));
    }
    apply(tree);
    assertThat(Reconciler.rebalance(tree.view(), maxMoves)).as("balanced: no moves").isEmpty();
    for (int b = first; b < first + joining; b++) {
      tree.apply(new Join(b));
    }
    apply(tree); // orphans (when there was no broker before) come first
    int moves = 0;
    while (true) {
      assertThat(Reconciler.plan(tree.view(), AssignmentStrategy.TOPIC_COUNT)).isEmpty();
      List<Assignment.Change> step = Reconciler.rebalance(tree.view(), maxMoves);
      assertThat(step.size()).isLessThanOrEqualTo(maxMoves);
      if (step.isEmpty()) {
        break;
      }
      for (Assignment.Change c : step) {
        Map<String, Integer> counts = Reconciler.topicCounts(tree.view());
        String from = c.before().orElseThrow().broker();
        assertThat(counts.get(from))
            .as("move %s", c)
            .isGreaterThan(counts.get(c.after().broker()) + 1);
        tree.assigned.put(c.topic(), c.after());
        moves++;
      }
      assertThat(moves).as("moves").isLessThanOrEqualTo(topics);
    }
    Map<String, Integer> counts = Reconciler.topicCounts(tree.view());
    if (first > 0) {
      int max = counts.values().stream().mapToInt(i -> i).max().orElseThrow();
      int min = counts.values().stream().mapToInt(i -> i).min().orElseThrow();
      assertThat(max - min)
          .as("counts %s", counts)
          .isLessThanOrEqualTo(Reconciler.tolerance(topics, counts.size()));
      assertThat(counts.values().stream().mapToInt(i -> i).sum()).isEqualTo(topics);
    }
  }

  @Provide
  Arbitrary<Integer> brokerCounts() {
    return Arbitraries.integers().between(0, 3);
  }

  @Provide
  Arbitrary<Integer> moveBudgets() {
    return Arbitraries.integers().between(1, 5);
  }

  @Provide
  Arbitrary<List<Integer>> deaths() {
    return Arbitraries.integers().between(0, 5).list().ofMaxSize(5);
  }

  @Provide
  Arbitrary<Integer> topicCounts() {
    return Arbitraries.integers().between(0, 40);
  }

  private static void apply(Tree tree) {
    for (Assignment.Change c : Reconciler.plan(tree.view(), AssignmentStrategy.TOPIC_COUNT)) {
      tree.assigned.put(c.topic(), c.after());
    }
  }

  /** The twin: orphaned topics in name order, each to the first broker with the fewest topics. */
  private static void naiveAssign(
      Map<String, String> assignment, TreeSet<String> brokers, TreeSet<String> topics) {
    for (String t : topics) {
      if (assignment.containsKey(t) || brokers.isEmpty()) {
        continue;
      }
      String best = null;
      int bestCount = Integer.MAX_VALUE;
      for (String b : brokers) {
        int n = 0;
        for (String x : assignment.values()) {
          if (x.equals(b)) {
            n++;
          }
        }
        if (n < bestCount) {
          best = b;
          bestCount = n;
        }
      }
      assignment.put(t, best);
    }
  }

  static String name(int b) {
    return "rb" + b;
  }

  static String topic(int t) {
    return "t/" + t;
  }

  /** The znode tree as the reconciler sees it; a broker that rejoins gets a new port. */
  static final class Tree {
    final TreeSet<String> brokers = new TreeSet<>();
    final TreeSet<String> topics = new TreeSet<>();
    final Map<String, Assignment> assigned = new HashMap<>();
    final Map<String, Integer> ports = new HashMap<>();
    int nextPort = 1000;

    void apply(Op op) {
      switch (op) {
        case Join j -> {
          if (brokers.add(name(j.broker()))) {
            ports.put(name(j.broker()), nextPort++);
          }
        }
        case Die d -> brokers.remove(name(d.broker()));
        case AddTopic a -> topics.add(topic(a.topic()));
        case RemoveTopic r -> {
          topics.remove(topic(r.topic()));
          assigned.remove(topic(r.topic()));
        }
      }
    }

    OverlayView view() {
      TreeMap<String, TopicState> ts = new TreeMap<>();
      Endpoint e = new Endpoint("s", new InetSocketAddress("127.0.0.1", 1));
      for (String t : topics) {
        ts.put(
            t, new TopicState(Optional.ofNullable(assigned.get(t)), 0, Map.of("e", e), Map.of()));
      }
      TreeMap<String, BrokerInfo> bs = new TreeMap<>();
      for (String b : brokers) {
        bs.put(b, new BrokerInfo(new InetSocketAddress("127.0.0.1", ports.get(b)), 0));
      }
      return new OverlayView(ts, bs, 0);
    }
  }
}
