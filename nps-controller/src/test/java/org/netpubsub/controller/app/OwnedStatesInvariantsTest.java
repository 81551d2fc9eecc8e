package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.flows.FlowInvariantException;
import org.netpubsub.controller.southbound.DesiredStateStore;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.invariants.Violation;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.Topology;

/** The flow service checks each batch's final state before its store or a switch takes it. */
class OwnedStatesInvariantsTest {
  private static final Topology LINE =
      Topology.EMPTY.addSwitch(1, 1, 2).addSwitch(2, 1, 2).addLink(Link.of(1, 2, 2, 1));

  private static FlowEntry entry(String dst, long port) {
    return FlowEntry.builder()
        .priority(100)
        .match(Match.builder().ipv6().ipv6Dst(dst).build())
        .apply(new Action.Output(port))
        .build();
  }

  private static List<SwitchMod> route(String dst, long port) {
    return List.of(SwitchMod.of(FlowMod.add(entry(dst, port))));
  }

  @Test
  void aBatchThatBlackHolesIsRefusedWholeAndChangesNothing() {
    DesiredStateStore published = new DesiredStateStore();
    OwnedStates states = new OwnedStates(published, true);
    states.register(Owner.NORTHBOUND_APPS);
    states.topology(LINE);
    Map<Long, List<SwitchMod>> hole = new TreeMap<>(Map.of(1L, route("fd00::/64", 2)));
    assertThatThrownBy(() -> states.apply(Owner.NORTHBOUND_APPS, hole))
        .isInstanceOf(FlowInvariantException.class)
        .hasMessageContaining("black hole for ipv6_dst class of fd00::")
        .satisfies(
            e ->
                assertThat(((FlowInvariantException) e).violation().kind())
                    .isEqualTo(Violation.Kind.BLACK_HOLE));
    assertThat(published.get(1)).isEmpty();
    // the next hop in the same batch: its final state delivers at 2's host port
    Map<Long, List<SwitchMod>> both =
        new TreeMap<>(Map.of(1L, route("fd00::/64", 2), 2L, route("fd00::/64", 2)));
    states.apply(Owner.NORTHBOUND_APPS, both);
    assertThat(published.get(1).orElseThrow().flows()).hasSize(1);
  }

  @Test
  void theCamusPipelinesBatchesAreCheckedByDefault() {
    DesiredStateStore published = new DesiredStateStore();
    OwnedStates states = new OwnedStates(published, true);
    states.register(Owner.CAMUS_PIPELINE);
    states.topology(LINE);
    // every query address to switch 2, which holds nothing for them: a black hole
    FlowEntry up =
        FlowEntry.builder()
            .priority(SwitchLayout.CAMUS_ENTRY_PRIORITY)
            .cookie(SwitchLayout.CAMUS_COOKIE)
            .match(Match.builder().ipv6().ipv6Dst(QueryAddressLayout.prefix()).build())
            .apply(new Action.Output(2))
            .build();
    Map<Long, List<SwitchMod>> hole =
        new TreeMap<>(Map.of(1L, List.of(SwitchMod.of(FlowMod.add(up)))));
    assertThatThrownBy(() -> states.apply(Owner.CAMUS_PIPELINE, hole))
        .as("without -Dnps.invariants.camus (stop 45: on unless set false)")
        .isInstanceOf(FlowInvariantException.class)
        .satisfies(
            e ->
                assertThat(((FlowInvariantException) e).violation().kind())
                    .isEqualTo(Violation.Kind.BLACK_HOLE));
    assertThat(published.get(1)).isEmpty();
  }

  @Test
  void switchedOffItTakesEveryBatch() {
    DesiredStateStore published = new DesiredStateStore();
    OwnedStates states = new OwnedStates(published, false);
    states.register(Owner.NORTHBOUND_APPS);
    states.topology(LINE);
    states.apply(Owner.NORTHBOUND_APPS, new TreeMap<>(Map.of(1L, route("fd00::/64", 2))));
    assertThat(published.get(1)).isPresent();
  }

  @Test
  void aReplacedSwitchIsIndexedBeforeTheNextBatchIsChecked() {
    DesiredStateStore published = new DesiredStateStore();
    OwnedStates states = new OwnedStates(published, true);
    states.register(Owner.NORTHBOUND_APPS);
    states.topology(LINE);
    // switch 2 delivers at its host port: a replacement, taken unchecked
    states.replace(Owner.NORTHBOUND_APPS, 2, List.of(entry("fd00::/64", 2)), List.of());
    states.apply(Owner.NORTHBOUND_APPS, new TreeMap<>(Map.of(1L, route("fd00::/64", 2))));
    assertThat(published.get(1)).isPresent();
    // switch 2 forgets it: the next route through it is a black hole again
    states.replace(Owner.NORTHBOUND_APPS, 2, List.of(), List.of());
    assertThatThrownBy(
            () ->
                states.apply(
                    Owner.NORTHBOUND_APPS, new TreeMap<>(Map.of(1L, route("fd00:1::/64", 2)))))
        .isInstanceOf(FlowInvariantException.class)
        .hasMessageContaining("black hole for ipv6_dst class of fd00:1::");
  }
}
