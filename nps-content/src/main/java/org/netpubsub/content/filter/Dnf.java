package org.netpubsub.content.filter;

import java.util.List;

/**
 * A filter in disjunctive normal form with contradictions removed and subsumed conjunctions
 * dropped. No conjunctions: false. One empty conjunction: true.
 */
public record Dnf(List<Conjunction> conjunctions) {
  public Dnf {
    conjunctions = List.copyOf(conjunctions);
  }

  public boolean isFalse() {
    return conjunctions.isEmpty();
  }

  public boolean isTrue() {
    return conjunctions.size() == 1
        && conjunctions.get(0).constraints().isEmpty()
        && conjunctions.get(0).aggregates().isEmpty();
  }
}
