package org.netpubsub.content.filter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A disjunction being built: conjunctions in order of first appearance, none subsumed by another.
 * Adding a conjunction that some member subsumes does nothing; adding one that subsumes members
 * removes them.
 *
 * <p>Members are also grouped by their anchor (the first attribute they pin to one value, see
 * {@link CanonicalConjunction#anchorPosition}): a conjunction anchored at position p is disjoint
 * from every member anchored at p with another value, so only the members anchored elsewhere and
 * those with the same anchor value are tested. In products of equalities, the common case of large
 * normal forms, that turns a quadratic number of tests into a near-linear one.
 */
final class ConjunctionSet {
  private final LinkedHashSet<CanonicalConjunction> members = new LinkedHashSet<>();

  /** Anchor position → anchor value → members; members without an anchor under -1 → null. */
  private final Map<Integer, Map<Object, Set<CanonicalConjunction>>> byAnchor = new HashMap<>();

  private final WorkBudget budget;

  ConjunctionSet(WorkBudget budget) {
    this.budget = budget;
  }

  void add(CanonicalConjunction c) {
    if (members.contains(c)) {
      return;
    }
    List<CanonicalConjunction> subsumed = new ArrayList<>();
    for (var byPosition : byAnchor.entrySet()) {
      if (byPosition.getKey() == c.anchorPosition() && c.anchorPosition() >= 0) {
        Set<CanonicalConjunction> same = byPosition.getValue().get(c.anchorValue());
        if (same != null && isSubsumed(c, same, subsumed)) {
          return;
        }
        continue;
      }
      for (Set<CanonicalConjunction> group : byPosition.getValue().values()) {
        if (isSubsumed(c, group, subsumed)) {
          return;
        }
      }
    }
    // Only now, when c is known to stay: removing first could lose a member that c equals in
    // meaning but not in form, if the inclusion tests go both ways.
    subsumed.forEach(this::remove);
    members.add(c);
    byAnchor
        .computeIfAbsent(c.anchorPosition(), p -> new HashMap<>())
        .computeIfAbsent(c.anchorValue(), v -> new LinkedHashSet<>())
        .add(c);
  }

  /** Whether a member of the group includes c; collects the members c includes. */
  private boolean isSubsumed(
      CanonicalConjunction c, Set<CanonicalConjunction> group, List<CanonicalConjunction> out) {
    for (CanonicalConjunction m : group) {
      budget.spend(1);
      if (c.isSubsetOf(m)) {
        return true;
      }
      if (m.isSubsetOf(c)) {
        out.add(m);
      }
    }
    return false;
  }

  private void remove(CanonicalConjunction m) {
    members.remove(m);
    Map<Object, Set<CanonicalConjunction>> values = byAnchor.get(m.anchorPosition());
    Set<CanonicalConjunction> group = values.get(m.anchorValue());
    group.remove(m);
    if (group.isEmpty()) {
      values.remove(m.anchorValue());
    }
  }

  int size() {
    return members.size();
  }

  List<CanonicalConjunction> toList() {
    return List.copyOf(members);
  }
}
