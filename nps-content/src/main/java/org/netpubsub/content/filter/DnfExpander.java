package org.netpubsub.content.filter;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.netpubsub.content.InvalidInputException;

/**
 * Expands a filter in negation normal form into canonical conjunctions, simplifying after every
 * step (contradictions out, subsumed conjunctions out) so that intermediate results stay small. A
 * product whose operands multiply past the limit is refused before it is built.
 */
final class DnfExpander {
  private final int maxConjunctions;
  private final WorkBudget budget;

  DnfExpander(int maxConjunctions, WorkBudget budget) {
    this.maxConjunctions = maxConjunctions;
    this.budget = budget;
  }

  List<CanonicalConjunction> expand(Filter nnf) {
    return switch (nnf) {
      case Filter.Or or -> {
        ConjunctionSet out = new ConjunctionSet(budget);
        for (Filter operand : or.operands()) {
          for (CanonicalConjunction c : expand(operand)) {
            out.add(c);
            checkSize(out.size());
          }
        }
        yield out.toList();
      }
      case Filter.And and -> {
        List<CanonicalConjunction> product = List.of(CanonicalConjunction.TRUE);
        // Operands that are single conjunctions are gathered and met all at once, so that a long
        // conjunction is not copied once per atom.
        List<CanonicalConjunction> singles = new ArrayList<>();
        for (Filter operand : and.operands()) {
          List<CanonicalConjunction> next = expand(operand);
          if (next.size() == 1) {
            singles.add(next.get(0));
            continue;
          }
          if (next.isEmpty() || (product = flush(product, singles)).isEmpty()) {
            yield List.of();
          }
          product = product(product, next);
          if (product.isEmpty()) {
            yield List.of();
          }
        }
        yield flush(product, singles);
      }
      default -> {
        budget.spend(1);
        yield CanonicalConjunction.ofAtom(nnf, budget).map(List::of).orElse(List.of());
      }
    };
  }

  /** The product with the conjunction of the gathered singles (which are then cleared). */
  private List<CanonicalConjunction> flush(
      List<CanonicalConjunction> product, List<CanonicalConjunction> singles) {
    if (singles.isEmpty()) {
      return product;
    }
    for (CanonicalConjunction s : singles) {
      budget.spendElements(s.size());
    }
    CanonicalConjunction all = CanonicalConjunction.meetAll(singles, budget);
    singles.clear();
    return all == null ? List.of() : product(product, List.of(all));
  }

  private List<CanonicalConjunction> product(
      List<CanonicalConjunction> left, List<CanonicalConjunction> right) {
    if (isTrue(right)) {
      return left;
    }
    if (isTrue(left)) {
      return right;
    }
    // Refuse before materializing: the product has at most |left| * |right| members.
    checkSize((long) left.size() * right.size());
    if (independent(left, right)) {
      return independentProduct(left, right);
    }
    ConjunctionSet out = new ConjunctionSet(budget);
    for (CanonicalConjunction l : left) {
      for (CanonicalConjunction r : right) {
        CanonicalConjunction both = l.meet(r, budget);
        if (both != null) {
          budget.spendElements(both.size());
          out.add(both);
        }
      }
    }
    return out.toList();
  }

  /**
   * Whether the two sides constrain disjoint attributes and at most one side has aggregates. Then a
   * conjunction of the product is included in another only if both of its halves are, and since
   * each side has no inclusions, the product has none either and no contradictions: every pair
   * stays and no inclusion test is needed. This keeps products like {@code (a==1 || a==2) && (b==1
   * || b==2) && ...} linear in their size.
   */
  private static boolean independent(
      List<CanonicalConjunction> left, List<CanonicalConjunction> right) {
    BitSet l = new BitSet();
    BitSet r = new BitSet();
    left.forEach(c -> c.addAttributesTo(l));
    right.forEach(c -> c.addAttributesTo(r));
    boolean aggregatesOnBothSides =
        left.stream().anyMatch(c -> !c.aggregates().isEmpty())
            && right.stream().anyMatch(c -> !c.aggregates().isEmpty());
    return !l.intersects(r) && !aggregatesOnBothSides;
  }

  private List<CanonicalConjunction> independentProduct(
      List<CanonicalConjunction> left, List<CanonicalConjunction> right) {
    List<CanonicalConjunction> out = new ArrayList<>(left.size() * right.size());
    for (CanonicalConjunction l : left) {
      for (CanonicalConjunction r : right) {
        CanonicalConjunction both = l.meet(r, budget);
        budget.spendElements(both.size());
        out.add(both);
      }
    }
    return out;
  }

  private static boolean isTrue(List<CanonicalConjunction> dnf) {
    return dnf.size() == 1 && dnf.get(0).equals(CanonicalConjunction.TRUE);
  }

  private void checkSize(long conjunctions) {
    if (conjunctions > maxConjunctions) {
      throw new InvalidInputException(
          "filter too large: its normal form would exceed " + maxConjunctions + " conjunctions");
    }
  }
}
