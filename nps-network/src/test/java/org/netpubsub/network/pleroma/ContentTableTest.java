package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;

/** The covering cases of flowAddition (Figure 4) and the downgrades of Figure 5, one by one. */
class ContentTableTest {
  static final EventEgress P1 = EventEgress.towardsSwitch(1);
  static final EventEgress P2 = EventEgress.towardsSwitch(2);
  static final EventEgress P3 = EventEgress.towardsSwitch(3);

  final ContentTable table = new ContentTable();

  @Test
  void case1NoOverlapAddsTheFlowAsItIs() {
    assertThat(add("1", P1)).containsExactly(FlowAdditionCase.NO_OVERLAP);
    assertThat(flows()).isEqualTo(Map.of("1", Set.of(P1)));
  }

  @Test
  void case2ACoveringFlowThatSendsTheSameWayMakesTheNewOneRedundant() {
    add("1", P1);
    assertThat(add("10", P1)).containsExactly(FlowAdditionCase.COVERED_BY_EXISTING);
    assertThat(flows()).isEqualTo(Map.of("1", Set.of(P1)));
  }

  @Test
  void case3ANewFlowReplacesTheFlowsItCovers() {
    add("100", P1);
    add("101", P1);
    assertThat(add("10", P1)).containsExactly(FlowAdditionCase.COVERS_EXISTING);
    assertThat(flows()).isEqualTo(Map.of("10", Set.of(P1)));
  }

  @Test
  void case4APartlyCoveredFlowIsAddedWithTheCoarserFlowsPortsAtHigherPriority() {
    add("1", P1);
    assertThat(add("10", P3)).containsExactly(FlowAdditionCase.PARTIALLY_COVERED_BY_EXISTING);
    assertThat(flows()).isEqualTo(Map.of("1", Set.of(P1), "10", Set.of(P1, P3)));
    assertThat(table.lookup(Dz.parse("1011"))).containsExactly(P1, P3);
    assertThat(table.lookup(Dz.parse("1100"))).containsExactly(P1);
  }

  @Test
  void case5FinerFlowsGainTheNewPortAndKeepTheirPriority() {
    add("100", P2);
    assertThat(add("10", P3)).containsExactly(FlowAdditionCase.PARTIALLY_COVERS_EXISTING);
    assertThat(flows()).isEqualTo(Map.of("10", Set.of(P3), "100", Set.of(P2, P3)));
  }

  @Test
  void theSameDzGainsAPort() {
    add("10", P1);
    assertThat(add("10", P2)).containsExactly(FlowAdditionCase.SAME_DZ);
    assertThat(flows()).isEqualTo(Map.of("10", Set.of(P1, P2)));
  }

  @Test
  void unsubscribingDowngradesSharedFlowsAndDeletesTheRest() {
    // Figure 5: s3's path shares switches with s1's; s3 leaves, s1 stays served
    add("1", P1); // s1
    add("10", P3); // s3 (partly covered: 10 → {1, 3})
    add("101", P2); // another subscriber, finer
    assertThat(flows())
        .isEqualTo(Map.of("1", Set.of(P1), "10", Set.of(P1, P3), "101", Set.of(P1, P2, P3)));
    table.remove(Dz.parse("10"), P3);
    assertThat(flows()).isEqualTo(Map.of("1", Set.of(P1), "101", Set.of(P1, P2)));
    table.remove(Dz.parse("1"), P1);
    assertThat(flows()).isEqualTo(Map.of("101", Set.of(P2)));
  }

  @Test
  void aRequirementNeededTwiceStaysUntilWithdrawnTwice() {
    add("01", P1);
    add("01", P1);
    table.remove(Dz.parse("01"), P1);
    assertThat(flows()).isEqualTo(Map.of("01", Set.of(P1)));
    table.remove(Dz.parse("01"), P1);
    assertThat(table.isEmpty()).isTrue();
    assertThatThrownBy(() -> table.remove(Dz.parse("01"), P1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not required");
  }

  @Test
  void theEmptyDzCoversEverything() {
    add("", P1);
    assertThat(table.lookup(Dz.parse("0110"))).containsExactly(P1);
  }

  private Set<FlowAdditionCase> add(String dz, EventEgress e) {
    return table.add(dz.isEmpty() ? Dz.EMPTY : Dz.parse(dz), e).cases();
  }

  private Map<String, Set<EventEgress>> flows() {
    Map<String, Set<EventEgress>> out = new TreeMap<>();
    table.flows().forEach((d, es) -> out.put(d.bits(), Set.copyOf(es)));
    return out;
  }

  static SortedSet<EventEgress> set(EventEgress... es) {
    return new TreeSet<>(Set.of(es));
  }
}
