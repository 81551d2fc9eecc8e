package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The leader's decisions, from the tree alone: which topics need a (new) routing broker. A topic
 * needs one when it has endpoints and no assignment, or its broker is not live, or the locator
 * written for it is stale (the broker came back elsewhere). Everything else is left as it is, so a
 * new leader fixes only what is wrong and never moves a healthy topic. Topics are taken in name
 * order and each choice counts towards the next, so one plan is balanced by itself. Separately, and
 * slowly, {@link #rebalance} moves healthy topics onto a broker that joined later. Pure.
 */
public final class Reconciler {
  private Reconciler() {}

  public static List<Assignment.Change> plan(OverlayView view, AssignmentStrategy strategy) {
    Map<String, int[]> counts = new TreeMap<>();
    view.brokers().keySet().forEach(b -> counts.put(b, new int[1]));
    for (TopicState t : view.topics().values()) {
      t.assignment().filter(a -> healthy(a, view)).ifPresent(a -> counts.get(a.broker())[0]++);
    }
    List<Assignment.Change> out = new ArrayList<>();
    for (Map.Entry<String, TopicState> e : view.topics().entrySet()) {
      TopicState t = e.getValue();
      if (!t.hasEndpoints() || t.assignment().filter(a -> healthy(a, view)).isPresent()) {
        continue;
      }
      var chosen = strategy.choose(e.getKey(), loads(view, counts));
      if (chosen.isEmpty()) {
        break; // no live broker: nothing can be assigned until one joins
      }
      String b = chosen.get();
      counts.get(b)[0]++;
      out.add(
          new Assignment.Change(
              e.getKey(),
              t.assignment(),
              t.version(),
              new Assignment(b, view.brokers().get(b).address())));
    }
    return out;
  }

  /**
   * Moves that even out topic counts after a routing broker joined (orphans are {@link #plan}'s):
   * while the most loaded live broker holds more than {@link #tolerance} topics above the least
   * loaded, its last topic in name order moves to the least loaded (ties by name, so every leader
   * decides alike), at most {@code maxMoves} per call. Counts within the tolerance are left alone,
   * so topics coming and going do not make topics move. Only for the topic-count strategy: rates
   * are reported per broker, not per topic, so a rate-balanced assignment has nothing to move by.
   */
  public static List<Assignment.Change> rebalance(OverlayView view, int maxMoves) {
    TreeMap<String, TreeSet<String>> held = new TreeMap<>();
    view.brokers().keySet().forEach(b -> held.put(b, new TreeSet<>()));
    view.topics()
        .forEach(
            (name, t) ->
                t.assignment()
                    .filter(a -> t.hasEndpoints() && healthy(a, view))
                    .ifPresent(a -> held.get(a.broker()).add(name)));
    List<Assignment.Change> out = new ArrayList<>();
    while (out.size() < maxMoves && held.size() > 1) {
      String most = extreme(held, true);
      String least = extreme(held, false);
      int total = held.values().stream().mapToInt(Set::size).sum();
      if (held.get(most).size() - held.get(least).size() <= tolerance(total, held.size())) {
        break;
      }
      String topic = held.get(most).pollLast();
      held.get(least).add(topic);
      TopicState t = view.topics().get(topic);
      out.add(
          new Assignment.Change(
              topic,
              t.assignment(),
              t.version(),
              new Assignment(least, view.brokers().get(least).address())));
    }
    return out;
  }

  /**
   * How far apart two brokers' topic counts may be before topics move: a quarter of the average, at
   * least 1 (within one is as even as integers get).
   */
  static int tolerance(int topics, int brokers) {
    return Math.max(1, topics / brokers / 4);
  }

  private static String extreme(TreeMap<String, TreeSet<String>> held, boolean most) {
    String best = null;
    for (var e : held.entrySet()) { // name order: the first of equals wins
      int n = e.getValue().size();
      if (best == null || (most ? n > held.get(best).size() : n < held.get(best).size())) {
        best = e.getKey();
      }
    }
    return best;
  }

  /** Live brokers with their assigned (healthy) topic counts. */
  public static Map<String, Integer> topicCounts(OverlayView view) {
    Map<String, Integer> out = new TreeMap<>();
    view.brokers().keySet().forEach(b -> out.put(b, 0));
    for (TopicState t : view.topics().values()) {
      t.assignment()
          .filter(a -> healthy(a, view))
          .ifPresent(a -> out.merge(a.broker(), 1, Integer::sum));
    }
    return out;
  }

  static boolean healthy(Assignment a, OverlayView view) {
    BrokerInfo b = view.brokers().get(a.broker());
    return b != null && b.address().equals(a.address());
  }

  private static Collection<BrokerLoad> loads(OverlayView view, Map<String, int[]> counts) {
    List<BrokerLoad> out = new ArrayList<>();
    for (Map.Entry<String, BrokerInfo> b : view.brokers().entrySet()) {
      out.add(new BrokerLoad(b.getKey(), counts.get(b.getKey())[0], b.getValue().rate()));
    }
    return out;
  }
}
