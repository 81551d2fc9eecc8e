package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.controlplane.ControlRequest.Kind;

/** The merge against its naive twin, and the constraints any reordering must keep. */
class SliceOrderProperties {
  @Property(tries = 500)
  void equalsTheNaiveTwin(@ForAll("slices") List<ControlRequest> slice) {
    assertThat(SliceOrder.reorder(slice)).isEqualTo(NaiveSliceOrder.reorder(slice));
  }

  @Property(tries = 500)
  void isAPermutationThatKeepsRunsAndPerHostOrder(@ForAll("slices") List<ControlRequest> slice) {
    List<ControlRequest> out = SliceOrder.reorder(slice);
    assertThat(out).containsExactlyInAnyOrderElementsOf(slice);
    int start = 0;
    for (int i = 1; i <= slice.size(); i++) {
      if (i == slice.size() || slice.get(i).kind() != slice.get(start).kind()) {
        // the same requests at the same positions of the run
        assertThat(out.subList(start, i))
            .containsExactlyInAnyOrderElementsOf(slice.subList(start, i));
        start = i;
      }
    }
    Set<Ipv6Address> hosts = slice.stream().map(ControlRequest::host).collect(Collectors.toSet());
    for (Ipv6Address h : hosts) {
      assertThat(out.stream().filter(r -> r.host().equals(h)).toList())
          .isEqualTo(slice.stream().filter(r -> r.host().equals(h)).toList());
    }
  }

  @Property(tries = 500)
  void withDistinctHostsRunsAreSortedByVolume(@ForAll("slices") List<ControlRequest> slice) {
    List<ControlRequest> distinct = new ArrayList<>();
    for (int i = 0; i < slice.size(); i++) {
      ControlRequest r = slice.get(i);
      distinct.add(new ControlRequest(r.kind(), r.id(), host(i), r.udpPort(), r.cells()));
    }
    List<ControlRequest> out = SliceOrder.reorder(distinct);
    for (int i = 1; i < out.size(); i++) {
      ControlRequest a = out.get(i - 1);
      ControlRequest b = out.get(i);
      if (a.kind() == b.kind()) {
        double va = a.cells().volume();
        double vb = b.cells().volume();
        assertThat(a.kind().adds() ? va >= vb : va <= vb).as("%s then %s", a, b).isTrue();
      }
    }
  }

  /** A few runs of one kind each (neighbouring runs may share a kind, then they are one run). */
  @Provide
  Arbitrary<List<ControlRequest>> slices() {
    Arbitrary<DzSet> cells =
        Arbitraries.strings()
            .withChars('0', '1')
            .ofMaxLength(4)
            .map(Dz::parse)
            .list()
            .ofMinSize(1)
            .ofMaxSize(3)
            .map(DzSet::of);
    Arbitrary<Member> members =
        Combinators.combine(Arbitraries.integers().between(0, 3), cells).as(Member::new);
    Arbitrary<Run> runs =
        Combinators.combine(Arbitraries.of(Kind.class), members.list().ofMinSize(1).ofMaxSize(6))
            .as(Run::new);
    return runs.list().ofMaxSize(4).map(SliceOrderProperties::requests);
  }

  record Member(int host, DzSet cells) {}

  record Run(Kind kind, List<Member> members) {}

  static List<ControlRequest> requests(List<Run> runs) {
    List<ControlRequest> out = new ArrayList<>();
    for (Run run : runs) {
      for (Member m : run.members()) {
        out.add(new ControlRequest(run.kind(), "r" + out.size(), host(m.host()), 5000, m.cells()));
      }
    }
    return out;
  }

  static Ipv6Address host(int i) {
    return new Ipv6Address(0x20010db800000000L, i);
  }
}
