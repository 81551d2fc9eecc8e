package org.netpubsub.content.filter;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A disjunction being built: conjunctions in order of first appearance, none subsumed by another.
 * Adding a conjunction that some member subsumes does nothing; adding one that subsumes members
 * removes them.
 */
final class ConjunctionSet {
  private final LinkedHashSet<CanonicalConjunction> members = new LinkedHashSet<>();
  private final WorkBudget budget;

  ConjunctionSet(WorkBudget budget) {
    this.budget = budget;
  }

  void add(CanonicalConjunction c) {
    if (members.contains(c)) {
      return;
    }
    List<CanonicalConjunction> subsumed = new ArrayList<>();
    for (CanonicalConjunction m : members) {
      budget.spend(1);
      if (c.isSubsetOf(m)) {
        return;
      }
      if (m.isSubsetOf(c)) {
        subsumed.add(m);
      }
    }
    // Only now, when c is known to stay: removing first could lose a member that c equals in
    // meaning but not in form, if the inclusion tests go both ways.
    subsumed.forEach(members::remove);
    members.add(c);
  }

  int size() {
    return members.size();
  }

  List<CanonicalConjunction> toList() {
    return List.copyOf(members);
  }
}
