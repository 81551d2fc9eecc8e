package org.netpubsub.edge.broker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.edge.amqp.AmqpTopics;

/**
 * The coordinator filters ({@link AmqpTopics#filter}) of the bindings local clients hold on the
 * broker's topic exchanges; a filter is present while at least one binding maps to it. Fed only
 * bindings of topic exchanges, never the agent's own. Pure, not thread-safe.
 */
final class LocalBindings implements LocalFilters {
  private static final String CARRIED_OVER = "\0carried-over";

  /** Per binding (exchange and id): its filter. */
  private final Map<List<String>, String> bindings = new HashMap<>();

  private final Map<String, Set<List<String>>> holders = new HashMap<>();

  List<FilterChange> apply(AmqpEvent.Binding b) {
    List<String> id = List.of(b.source(), b.id());
    List<FilterChange> out = new ArrayList<>();
    if (b.created()) {
      add(id, AmqpTopics.filter(b.source(), b.key()), out);
    } else {
      remove(id, out);
    }
    return out;
  }

  /** Exchange {@code name} is gone, and every binding it had. */
  List<FilterChange> exchangeGone(String name) {
    List<FilterChange> out = new ArrayList<>();
    for (List<String> id : List.copyOf(bindings.keySet())) {
      if (id.get(0).equals(name)) {
        remove(id, out);
      }
    }
    return out;
  }

  @Override
  public List<FilterChange> carryOver(Collection<String> filters) {
    List<FilterChange> out = new ArrayList<>();
    for (String f : filters) {
      add(List.of(CARRIED_OVER, f), f, out);
    }
    return out;
  }

  @Override
  public Set<String> filters() {
    return Set.copyOf(holders.keySet());
  }

  private void add(List<String> id, String filter, List<FilterChange> out) {
    if (bindings.putIfAbsent(id, filter) != null) {
      return;
    }
    Set<List<String>> h = holders.computeIfAbsent(filter, k -> new HashSet<>());
    if (h.isEmpty()) {
      out.add(new FilterChange(filter, true));
    }
    h.add(id);
  }

  private void remove(List<String> id, List<FilterChange> out) {
    String filter = bindings.remove(id);
    if (filter == null) {
      return;
    }
    Set<List<String>> h = holders.get(filter);
    h.remove(id);
    if (h.isEmpty()) {
      holders.remove(filter);
      out.add(new FilterChange(filter, false));
    }
  }
}
