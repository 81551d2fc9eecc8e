package org.netpubsub.cli.structure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The cycle check's graph: Tarjan against mutual reachability, and the allowlist's rules. */
class PackageGraphTest {
  @Property(tries = 500)
  void cyclesAreTheGroupsOfMutuallyReachablePackages(
      @ForAll @Size(max = 30) List<@IntRange(max = 8) Integer> ends) {
    PackageGraph g = new PackageGraph();
    for (int i = 0; i + 1 < ends.size(); i += 2) {
      g.add("p" + ends.get(i), "p" + ends.get(i + 1));
    }
    Set<Set<String>> naive = new HashSet<>();
    for (String a : g.packages()) {
      Set<String> group = new TreeSet<>();
      for (String b : g.packages()) {
        if (a.equals(b) || g.reaches(a, b) && g.reaches(b, a)) {
          group.add(b);
        }
      }
      if (group.size() > 1) {
        naive.add(group);
      }
    }
    assertThat(new HashSet<>(g.cycles())).isEqualTo(naive);
  }

  @Test
  void aCycleIsAProblemUnlessAnAllowedEdgeClosesIt() {
    PackageGraph g = new PackageGraph().add("a", "b").add("b", "c").add("c", "a").add("c", "d");
    assertThat(g.problems(Set.of()))
        .containsExactly("package cycle [a, b, c]: a -> b, b -> c, c -> a");
    assertThat(g.problems(Set.of(List.of("c", "a")))).isEmpty();
    // a second cycle through the allowed edge's packages is still found
    g.add("b", "a");
    assertThat(g.problems(Set.of(List.of("c", "a"))))
        .containsExactly("package cycle [a, b]: a -> b, b -> a");
  }

  @Test
  void anAllowedEdgeThatIsGoneOrClosesNoCycleMustBeRemoved() {
    PackageGraph g = new PackageGraph().add("a", "b").add("c", "a");
    assertThat(g.problems(Set.of(List.of("b", "a"))))
        .containsExactly("allowed edge b -> a is gone: remove it from the allowlist");
    assertThat(g.problems(Set.of(List.of("c", "a"))))
        .containsExactly(
            "allowed edge c -> a closes no cycle any more: remove it from the allowlist");
  }
}
