package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The leader's decisions, from the tree alone: which topics need a (new) routing broker. A topic
 * needs one when it has endpoints and no assignment, or its broker is not live, or the locator
 * written for it is stale (the broker came back elsewhere). Everything else is left as it is, so a
 * new leader fixes only what is wrong and never moves a healthy topic. Topics are taken in name
 * order and each choice counts towards the next, so one plan is balanced by itself. Pure.
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
