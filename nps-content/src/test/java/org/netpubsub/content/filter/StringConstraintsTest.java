package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.filter.Filter.StringOp;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.Topics;

/**
 * String constraints against every string of up to 3 characters over {a, b, c, d}: canonical forms
 * keep the meaning (soundness of contradictions and dropped demands), inclusion claims hold.
 */
class StringConstraintsTest {
  private static final StringAttribute S = new StringAttribute("s", 0, 3);

  /** Probe values: constants come from {a, b, c}, so 'd' stands for every other character. */
  private static final List<String> PROBES = probes();

  /** Topic filters for {@code matches} atoms (their meaning is MQTT's on any probe). */
  private static final List<String> PATTERNS =
      List.of("#", "+", "a/#", "a/+", "+/b", "a/+/#", "+/+", "b/#", "a/b/+");

  private static List<String> probes() {
    List<String> out = new java.util.ArrayList<>(FilterArbitraries.strings("abcd", 3));
    out.addAll(List.of("a/b", "a/a", "b/a", "b/b", "a/b/c", "a/a/b", "$a/b", "a/$b", "c/b/a"));
    return out;
  }

  /** One atom of a conjunction: an operator, whether it is negated, and a constant. */
  record Atom(StringOp op, boolean negated, String constant) {
    boolean holds(String v) {
      boolean r =
          switch (op) {
            case EQ -> v.equals(constant);
            case NE -> !v.equals(constant);
            case PREFIX -> v.startsWith(constant);
            case SUFFIX -> v.endsWith(constant);
            case CONTAINS -> v.contains(constant);
            case MATCHES -> Topics.matches(constant, v);
          };
      return r != negated;
    }

    void addTo(StringConstraints.Parts p) {
      (switch (op) {
            case EQ -> negated ? p.notEqualTo : p.equalTo;
            case NE -> negated ? p.equalTo : p.notEqualTo;
            case PREFIX -> negated ? p.notPrefixes : p.prefixes;
            case SUFFIX -> negated ? p.notSuffixes : p.suffixes;
            case CONTAINS -> negated ? p.notContains : p.contains;
            case MATCHES -> negated ? p.notPatterns : p.patterns;
          })
          .add(constant);
    }
  }

  @Provide
  Arbitrary<List<Atom>> conjunctions() {
    Arbitrary<String> constants =
        Arbitraries.of(FilterArbitraries.STRINGS.subList(0, 13)); // length <= 2, over {a, b, c}
    Arbitrary<Atom> atom =
        Arbitraries.of(StringOp.values())
            .flatMap(
                op ->
                    Combinators.combine(
                            Arbitraries.just(op),
                            Arbitraries.of(true, false),
                            op == StringOp.MATCHES ? Arbitraries.of(PATTERNS) : constants)
                        .as(Atom::new));
    return atom.list().ofMinSize(1).ofMaxSize(6);
  }

  private static StringConstraint canonical(List<Atom> atoms) {
    StringConstraints.Parts p = new StringConstraints.Parts();
    atoms.forEach(a -> a.addTo(p));
    return StringConstraints.canonical(S, p, WorkBudget.unlimited());
  }

  private static boolean accepts(StringConstraint c, String v) {
    return c != null && c.accepts(v);
  }

  @Property(tries = 1000)
  void canonicalFormKeepsTheMeaning(@ForAll("conjunctions") List<Atom> atoms) {
    StringConstraint c = canonical(atoms);
    for (String v : PROBES) {
      assertThat(accepts(c, v))
          .as("%s at \"%s\": %s", atoms, v, c)
          .isEqualTo(atoms.stream().allMatch(a -> a.holds(v)));
    }
    if (c != null) {
      StringConstraints.Parts again = new StringConstraints.Parts().add(c);
      assertThat(StringConstraints.canonical(S, again, WorkBudget.unlimited()))
          .as("idempotent")
          .isEqualTo(c);
      if (StringConstraints.isFull(c)) {
        assertThat(PROBES).allMatch(c::accepts);
      }
      if (c.equalTo() != null) {
        assertThat(StringConstraints.size(c)).isEqualTo(1);
      }
      assertThat(c.prefixes().size()).isLessThanOrEqualTo(1);
      assertThat(c.suffixes().size()).isLessThanOrEqualTo(1);
    }
  }

  @Property(tries = 1000)
  void meetsAndInclusionClaimsAreSound(
      @ForAll("conjunctions") List<Atom> x, @ForAll("conjunctions") List<Atom> y) {
    StringConstraint cx = canonical(x);
    StringConstraint cy = canonical(y);
    if (cx == null || cy == null) {
      return;
    }
    StringConstraint both = StringConstraints.meet(cx, cy, WorkBudget.unlimited());
    boolean subset = true;
    for (String v : PROBES) {
      assertThat(accepts(both, v)).isEqualTo(cx.accepts(v) && cy.accepts(v));
      subset &= !cx.accepts(v) || cy.accepts(v);
    }
    if (StringConstraints.isSubset(cx, cy)) {
      assertThat(subset).as("claimed %s within %s", cx, cy).isTrue();
    }
  }
}
