package org.netpubsub.content.filter;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.netpubsub.content.schema.StringAttribute;

/**
 * Builds, intersects and compares {@link StringConstraint}s in canonical form. Sound, not complete:
 * a constraint declared empty is empty, and {@link #isSubset} never claims an inclusion that does
 * not hold; but some unsatisfiable combinations (say, a prefix and a suffix that together exceed
 * max_length) are kept.
 */
final class StringConstraints {
  private StringConstraints() {}

  /** Demands on one string attribute, collected before they are brought into canonical form. */
  static final class Parts {
    final SortedSet<String> equalTo = new TreeSet<>();
    final SortedSet<String> notEqualTo = new TreeSet<>();
    final SortedSet<String> prefixes = new TreeSet<>();
    final SortedSet<String> suffixes = new TreeSet<>();
    final SortedSet<String> contains = new TreeSet<>();
    final SortedSet<String> notPrefixes = new TreeSet<>();
    final SortedSet<String> notSuffixes = new TreeSet<>();
    final SortedSet<String> notContains = new TreeSet<>();
    final SortedSet<String> patterns = new TreeSet<>();
    final SortedSet<String> notPatterns = new TreeSet<>();

    Parts add(StringConstraint c) {
      if (c.equalTo() != null) {
        equalTo.add(c.equalTo());
      }
      notEqualTo.addAll(c.notEqualTo());
      prefixes.addAll(c.prefixes());
      suffixes.addAll(c.suffixes());
      contains.addAll(c.contains());
      notPrefixes.addAll(c.notPrefixes());
      notSuffixes.addAll(c.notSuffixes());
      notContains.addAll(c.notContains());
      patterns.addAll(c.patterns());
      notPatterns.addAll(c.notPatterns());
      return this;
    }
  }

  /** The values both allow, or null when they certainly allow none. */
  static StringConstraint meet(StringConstraint x, StringConstraint y, WorkBudget budget) {
    return canonical(x.attribute(), new Parts().add(x).add(y), budget);
  }

  /** The values all of them allow, or null when they certainly allow none. */
  static StringConstraint meetAll(List<StringConstraint> all, WorkBudget budget) {
    Parts p = new Parts();
    all.forEach(p::add);
    return canonical(all.get(0).attribute(), p, budget);
  }

  /**
   * The canonical form of the parts, or null when they certainly allow no value. The result may be
   * trivially true (see {@link #isFull}). Pairwise comparisons are charged to the budget.
   */
  static StringConstraint canonical(StringAttribute a, Parts p, WorkBudget budget) {
    // The empty string is a prefix, suffix and substring of everything.
    p.prefixes.remove("");
    p.suffixes.remove("");
    p.contains.remove("");
    if (p.notPrefixes.contains("") || p.notSuffixes.contains("") || p.notContains.contains("")) {
      return null;
    }
    if (p.equalTo.size() > 1) {
      return null;
    }
    if (p.equalTo.size() == 1) {
      String v = p.equalTo.first();
      p.equalTo.clear();
      // An equality decides every other demand: they hold for v (and are dropped) or not.
      StringConstraint rest = build(a, null, p);
      budget.spend(size(rest));
      return fits(a, v) && rest.accepts(v) ? build(a, v, new Parts()) : null;
    }
    if (p.patterns.stream().anyMatch(p.notPatterns::contains)) {
      return null;
    }
    String prefix = longestChain(p.prefixes, false);
    String suffix = longestChain(p.suffixes, true);
    if (prefix == null || suffix == null) {
      return null;
    }
    if (!fits(a, prefix) || !fits(a, suffix) || !p.contains.stream().allMatch(c -> fits(a, c))) {
      return null;
    }
    p.prefixes.retainAll(Set.of(prefix));
    p.suffixes.retainAll(Set.of(suffix));
    budget.spend((long) p.contains.size() * p.contains.size());
    // A substring of a required prefix, suffix or longer substring is implied.
    p.contains.removeIf(
        c ->
            prefix.contains(c)
                || suffix.contains(c)
                || p.contains.stream().anyMatch(o -> o.length() > c.length() && o.contains(c)));
    budget.spend((long) p.notContains.size() * (p.contains.size() + p.notContains.size()));
    for (String nc : p.notContains) {
      if (prefix.contains(nc)
          || suffix.contains(nc)
          || p.contains.stream().anyMatch(c -> c.contains(nc))) {
        return null;
      }
    }
    p.notContains.removeIf(
        nc -> p.notContains.stream().anyMatch(o -> o.length() < nc.length() && nc.contains(o)));
    if (p.notPrefixes.stream().anyMatch(prefix::startsWith)
        || p.notSuffixes.stream().anyMatch(suffix::endsWith)) {
      return null;
    }
    // A not-prefix that clashes with the required prefix, or contains a forbidden substring,
    // excludes nothing the other demands allow; a not-prefix extending another is implied by it.
    budget.spend((long) (p.notPrefixes.size() + p.notSuffixes.size()) * p.notContains.size());
    p.notPrefixes.removeIf(
        np -> !np.startsWith(prefix) || p.notContains.stream().anyMatch(np::contains));
    p.notSuffixes.removeIf(
        ns -> !ns.endsWith(suffix) || p.notContains.stream().anyMatch(ns::contains));
    dropExtensions(p.notPrefixes);
    dropSuffixExtensions(p.notSuffixes);
    StringConstraint rest = build(a, null, withoutNotEqual(p));
    budget.spend((long) p.notEqualTo.size() * size(rest));
    p.notEqualTo.removeIf(v -> !fits(a, v) || !rest.accepts(v));
    StringConstraint c = build(a, null, p);
    if (a.maxLength() == 0) {
      // The domain is {""}: the constraint is all or nothing.
      return c.accepts("") ? build(a, null, new Parts()) : null;
    }
    return c;
  }

  /**
   * Drops every string that extends another one of the set. In sorted order the extensions of a
   * string follow it directly, so one pass comparing with the last kept string finds them all.
   */
  private static void dropExtensions(SortedSet<String> set) {
    String kept = null;
    for (Iterator<String> it = set.iterator(); it.hasNext(); ) {
      String s = it.next();
      if (kept != null && s.startsWith(kept)) {
        it.remove();
      } else {
        kept = s;
      }
    }
  }

  /** As {@link #dropExtensions}, for strings that end with another one of the set. */
  private static void dropSuffixExtensions(SortedSet<String> set) {
    TreeSet<String> reversed = new TreeSet<>();
    set.forEach(s -> reversed.add(reverse(s)));
    dropExtensions(reversed);
    set.clear();
    reversed.forEach(s -> set.add(reverse(s)));
  }

  /** Reverses char by char (not code point by code point), so endsWith becomes startsWith. */
  private static String reverse(String s) {
    char[] c = new char[s.length()];
    for (int i = 0; i < c.length; i++) {
      c[i] = s.charAt(c.length - 1 - i);
    }
    return new String(c);
  }

  /** Whether the constraint allows every value (and so says nothing). */
  static boolean isFull(StringConstraint c) {
    return c.equalTo() == null
            && c.notEqualTo().isEmpty()
            && c.prefixes().isEmpty()
            && c.suffixes().isEmpty()
            && c.contains().isEmpty()
            && c.notPrefixes().isEmpty()
            && c.notSuffixes().isEmpty()
            && c.notContains().isEmpty()
            && c.patterns().isEmpty()
            && c.notPatterns().isEmpty()
        || c.attribute().maxLength() == 0 && c.accepts("");
  }

  /**
   * Whether every value {@code sub} accepts is accepted by {@code sup}: each demand of {@code sup}
   * must follow from a demand of {@code sub}. Sound; may answer false for a true inclusion.
   */
  static boolean isSubset(StringConstraint sub, StringConstraint sup) {
    if (sub.equalTo() != null) {
      return sup.accepts(sub.equalTo());
    }
    if (sup.equalTo() != null) {
      return false;
    }
    return sup.notEqualTo().stream().noneMatch(sub::accepts)
        && sup.prefixes().stream()
            .allMatch(p -> sub.prefixes().stream().anyMatch(q -> q.startsWith(p)))
        && sup.suffixes().stream()
            .allMatch(s -> sub.suffixes().stream().anyMatch(q -> q.endsWith(s)))
        && sup.contains().stream().allMatch(c -> requiresSubstring(sub, c))
        && sup.notPrefixes().stream().allMatch(np -> forbidsPrefix(sub, np))
        && sup.notSuffixes().stream().allMatch(ns -> forbidsSuffix(sub, ns))
        && sup.notContains().stream()
            .allMatch(nc -> sub.notContains().stream().anyMatch(nc::contains))
        && sub.patterns().containsAll(sup.patterns())
        && sub.notPatterns().containsAll(sup.notPatterns());
  }

  private static boolean requiresSubstring(StringConstraint c, String s) {
    return c.prefixes().stream().anyMatch(p -> p.contains(s))
        || c.suffixes().stream().anyMatch(p -> p.contains(s))
        || c.contains().stream().anyMatch(p -> p.contains(s));
  }

  /** Whether no value {@code c} accepts starts with {@code np}. */
  private static boolean forbidsPrefix(StringConstraint c, String np) {
    return c.notPrefixes().stream().anyMatch(np::startsWith)
        || c.prefixes().stream().anyMatch(p -> !p.startsWith(np) && !np.startsWith(p))
        || c.notContains().stream().anyMatch(np::contains);
  }

  /** Whether no value {@code c} accepts ends with {@code ns}. */
  private static boolean forbidsSuffix(StringConstraint c, String ns) {
    return c.notSuffixes().stream().anyMatch(ns::endsWith)
        || c.suffixes().stream().anyMatch(s -> !s.endsWith(ns) && !ns.endsWith(s))
        || c.notContains().stream().anyMatch(ns::contains);
  }

  /**
   * The longest of strings that must all be prefixes (or suffixes) of one value: "" when there are
   * none, null when two of them conflict.
   */
  private static String longestChain(SortedSet<String> all, boolean suffix) {
    String longest = "";
    for (String s : all) {
      if (s.length() > longest.length()) {
        longest = s;
      }
    }
    for (String s : all) {
      if (suffix ? !longest.endsWith(s) : !longest.startsWith(s)) {
        return null;
      }
    }
    return longest;
  }

  private static Parts withoutNotEqual(Parts p) {
    Parts q = new Parts();
    q.prefixes.addAll(p.prefixes);
    q.suffixes.addAll(p.suffixes);
    q.contains.addAll(p.contains);
    q.notPrefixes.addAll(p.notPrefixes);
    q.notSuffixes.addAll(p.notSuffixes);
    q.notContains.addAll(p.notContains);
    q.patterns.addAll(p.patterns);
    q.notPatterns.addAll(p.notPatterns);
    return q;
  }

  private static boolean fits(StringAttribute a, String v) {
    return a.fits(v);
  }

  private static StringConstraint build(StringAttribute a, String equalTo, Parts p) {
    return new StringConstraint(
        a,
        equalTo,
        frozen(p.notEqualTo),
        frozen(p.prefixes),
        frozen(p.suffixes),
        frozen(p.contains),
        frozen(p.notPrefixes),
        frozen(p.notSuffixes),
        frozen(p.notContains),
        frozen(p.patterns),
        frozen(p.notPatterns));
  }

  private static SortedSet<String> frozen(SortedSet<String> s) {
    return Collections.unmodifiableSortedSet(new TreeSet<>(s));
  }

  static boolean same(StringConstraint x, StringConstraint y) {
    return x.equals(y);
  }

  /** How much work (set elements) the constraint stands for; bounds normalization effort. */
  static int size(StringConstraint c) {
    return 1
        + c.notEqualTo().size()
        + c.prefixes().size()
        + c.suffixes().size()
        + c.contains().size()
        + c.notPrefixes().size()
        + c.notSuffixes().size()
        + c.notContains().size()
        + c.patterns().size()
        + c.notPatterns().size();
  }
}
