package org.netpubsub.compiler.bdd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.compiler.domain.FieldConstraints;
import org.netpubsub.compiler.domain.IntervalSet;

/**
 * The store is canonical (issue 27 part 7): one rule set united in any order, in any store, is the
 * very same diagram, node for node. The Camus engine's content ids hash sub-diagrams, so a
 * restarted controller that meets the standing rules in another order must build the same one.
 * Checked on small domains against a naive twin (every value vector against every rule's sets), so
 * the extra reduction cannot change what a message gets.
 */
class BddUnionOrderProperties {
  private static final long[] MAX = {5, 7, 4}; // exact, range, exact: each field's largest value
  private static final boolean[] EQUALITY = {true, false, true};

  /**
   * The smallest case: f == 1 → A, f == 2 → B, anything → A. United as (1 ∪ 2) ∪ any, the test f ==
   * 1 leads to A, which is what f ≠ 1 gives it too (a redundant test); as (1 ∪ any) ∪ 2 the first
   * union is just A and the test never appears.
   */
  @Example
  void aRedundantEqualityTestDoesNotDependOnTheUnionOrder() {
    Bdd bdd = new Bdd(new boolean[] {true});
    int a = bdd.leaf(Leaf.of(1));
    int b = bdd.leaf(Leaf.of(2));
    int one = bdd.node(0, 1, a, Bdd.EMPTY);
    int two = bdd.node(0, 2, b, Bdd.EMPTY);
    int leftFirst = bdd.union(bdd.union(one, two), a);
    int anyFirst = bdd.union(bdd.union(one, a), two);
    assertThat(leftFirst).isEqualTo(anyFirst);
    assertThat(bdd.constant(anyFirst)).isEqualTo(2); // f == 1 is not tested: it changes nothing
  }

  /** A chain's true branch equal to what the chain gives every other value is no test. */
  @Example
  void nodeDropsATestThatLeadsWhereItsChainEnds() {
    Bdd bdd = new Bdd(new boolean[] {true});
    int a = bdd.leaf(Leaf.of(1));
    int ab = bdd.leaf(Leaf.of(1, 2));
    int rest = bdd.node(0, 2, ab, a);
    assertThat(bdd.node(0, 1, a, rest)).isEqualTo(rest);
    assertThat(bdd.node(0, 1, ab, rest)).isNotEqualTo(rest); // not redundant: kept
  }

  @Property(tries = 100)
  void anyUnionOrderGivesTheSameDiagram(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int count) {
    Random r = new Random(seed);
    List<FieldConstraints> rules = new ArrayList<>();
    int[] action = new int[count];
    for (int i = 0; i < count; i++) {
      rules.add(rule(r));
      action[i] = 1 + r.nextInt(3); // rules share actions, as a host's subscriptions share a port
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      order.add(i);
    }
    Bdd one = new Bdd(EQUALITY);
    int folded = leftFold(one, rules, action, order);
    assertSameFunctionAsTheRules(one, folded, rules, action);
    // Another store (its own node ids) and, in it, other orders and bracketings: the same node.
    Bdd other = new Bdd(EQUALITY);
    int first = -1;
    for (int round = 0; round < 3; round++) {
      Collections.shuffle(order, r);
      int root = randomTree(other, rules, action, order, r);
      if (round == 0) {
        first = root;
        assertThat(shape(other, root)).as("order %s", order).isEqualTo(shape(one, folded));
      } else {
        assertThat(root).as("order %s", order).isEqualTo(first);
      }
    }
  }

  /** Some fields constrained, each to a point, a short range, or either plus a point. */
  private static FieldConstraints rule(Random r) {
    IntervalSet[] fields = new IntervalSet[MAX.length];
    for (int f = 0; f < MAX.length; f++) {
      int kind = r.nextInt(4);
      if (kind == 0) {
        continue; // any value
      }
      long lo = r.nextInt((int) MAX[f] + 1);
      IntervalSet s =
          kind == 1
              ? IntervalSet.point(lo)
              : IntervalSet.range(lo, lo + r.nextInt(3) % (MAX[f] - lo + 1));
      if (kind == 3) {
        s = s.union(IntervalSet.point(r.nextInt((int) MAX[f] + 1)));
      }
      fields[f] = s;
    }
    return new FieldConstraints(fields, true);
  }

  private static int build(Bdd bdd, List<FieldConstraints> rules, int[] action, int i) {
    return ConjunctionBdd.build(bdd, rules.get(i), MAX, bdd.leaf(Leaf.of(action[i])));
  }

  private static int leftFold(
      Bdd bdd, List<FieldConstraints> rules, int[] action, List<Integer> order) {
    int acc = Bdd.EMPTY;
    for (int i : order) {
      acc = bdd.union(acc, build(bdd, rules, action, i));
    }
    return acc;
  }

  /** Unites random pairs until one diagram is left (any bracketing, as union trees make). */
  private static int randomTree(
      Bdd bdd, List<FieldConstraints> rules, int[] action, List<Integer> order, Random r) {
    List<Integer> parts = new ArrayList<>();
    for (int i : order) {
      parts.add(build(bdd, rules, action, i));
    }
    if (parts.isEmpty()) {
      return Bdd.EMPTY;
    }
    while (parts.size() > 1) {
      int x = parts.remove(r.nextInt(parts.size()));
      int y = parts.remove(r.nextInt(parts.size()));
      parts.add(r.nextBoolean() ? bdd.union(x, y) : bdd.union(y, x));
    }
    return parts.get(0);
  }

  /** The naive twin: every value vector gets the actions of the rules whose sets hold it. */
  private static void assertSameFunctionAsTheRules(
      Bdd bdd, int root, List<FieldConstraints> rules, int[] action) {
    long[] v = new long[MAX.length];
    for (v[0] = 0; v[0] <= MAX[0]; v[0]++) {
      for (v[1] = 0; v[1] <= MAX[1]; v[1]++) {
        for (v[2] = 0; v[2] <= MAX[2]; v[2]++) {
          TreeSet<Integer> want = new TreeSet<>();
          for (int i = 0; i < rules.size(); i++) {
            boolean match = true;
            for (int f = 0; f < MAX.length; f++) {
              IntervalSet s = rules.get(i).field(f);
              match &= s == null || s.contains(v[f]);
            }
            if (match) {
              want.add(action[i]);
            }
          }
          int[] got = bdd.evaluate(root, v).actions();
          assertThat(got)
              .as("values %d %d %d", v[0], v[1], v[2])
              .isEqualTo(want.stream().mapToInt(Integer::intValue).toArray());
        }
      }
    }
  }

  /** The diagram as text, independent of node ids: equal texts are equal diagrams. */
  private static String shape(Bdd bdd, int root) {
    Map<Integer, Integer> names = new HashMap<>();
    StringBuilder out = new StringBuilder();
    name(bdd, root, names, out);
    return out.toString();
  }

  private static int name(Bdd bdd, int n, Map<Integer, Integer> names, StringBuilder out) {
    Integer known = names.get(n);
    if (known != null) {
      return known;
    }
    String line;
    if (bdd.isLeaf(n)) {
      line = "leaf " + bdd.leafOf(n);
    } else {
      int t = name(bdd, bdd.whenTrue(n), names, out);
      int e = name(bdd, bdd.whenFalse(n), names, out);
      line = bdd.field(n) + (bdd.isEquality(bdd.field(n)) ? " == " : " < ") + bdd.constant(n);
      line += " ? " + t + " : " + e;
    }
    int id = names.size();
    names.put(n, id);
    out.append(id).append(": ").append(line).append('\n');
    return id;
  }
}
