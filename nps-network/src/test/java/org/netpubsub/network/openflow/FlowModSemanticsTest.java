package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** Flow-mod commands of the simulated switch: what each selects and changes (OpenFlow 1.3 §6.4). */
class FlowModSemanticsTest {
  private final SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4).build();

  private static Match dst(String masked) {
    return Match.builder().ipv6().ipv6Dst(masked).build();
  }

  private static FlowEntry entry(int table, int priority, Match m, long cookie, long port) {
    return FlowEntry.builder()
        .table(table)
        .priority(priority)
        .match(m)
        .cookie(cookie)
        .apply(Action.output(port))
        .build();
  }

  private void add(FlowEntry e) {
    assertThat(sw.apply(FlowMod.add(e))).isEmpty();
  }

  @Test
  void addWithIdenticalMatchAndPriorityReplaces() {
    add(entry(0, 10, dst("ff0e::/16"), 1, 1));
    add(entry(0, 10, dst("ff0e::/16"), 2, 2));
    add(entry(0, 11, dst("ff0e::/16"), 3, 3));
    assertThat(sw.flows())
        .containsExactly(
            entry(0, 11, dst("ff0e::/16"), 3, 3), entry(0, 10, dst("ff0e::/16"), 2, 2));
  }

  @Test
  void checkOverlapRefusesSamePriorityOverlapButNotAnIdenticalEntry() {
    add(entry(0, 10, dst("ff0e::/16"), 0, 1));
    FlowEntry overlapping =
        entry(0, 10, dst("ff0e:8000::/17"), 0, 2).toBuilder().flag(FlowFlag.CHECK_OVERLAP).build();
    assertThat(sw.apply(FlowMod.add(overlapping))).contains(OpenFlowError.OFPFMFC_OVERLAP);
    FlowEntry otherPriority = overlapping.toBuilder().priority(11).build();
    assertThat(sw.apply(FlowMod.add(otherPriority))).isEmpty();
    FlowEntry disjoint =
        entry(0, 10, dst("ff0f::/16"), 0, 2).toBuilder().flag(FlowFlag.CHECK_OVERLAP).build();
    assertThat(sw.apply(FlowMod.add(disjoint))).isEmpty();
    // Same match and priority: a replacement, not an overlap (as OVS).
    FlowEntry identical =
        entry(0, 10, dst("ff0e::/16"), 0, 3).toBuilder().flag(FlowFlag.CHECK_OVERLAP).build();
    assertThat(sw.apply(FlowMod.add(identical))).isEmpty();
    assertThat(sw.flows()).contains(identical);
  }

  @Test
  void aFullTableRefusesNewEntriesButNotReplacements() {
    SimulatedSwitch small = SimulatedSwitch.builder().ports(1).maxFlowsPerTable(2).build();
    assertThat(small.apply(FlowMod.add(entry(0, 1, Match.ANY, 0, 1)))).isEmpty();
    assertThat(small.apply(FlowMod.add(entry(0, 2, Match.ANY, 0, 1)))).isEmpty();
    assertThat(small.apply(FlowMod.add(entry(0, 3, Match.ANY, 0, 1))))
        .contains(OpenFlowError.OFPFMFC_TABLE_FULL);
    assertThat(small.apply(FlowMod.add(entry(0, 2, Match.ANY, 7, 1)))).isEmpty();
    assertThat(small.apply(FlowMod.add(entry(1, 3, Match.ANY, 0, 1)))).isEmpty();
  }

  @Test
  void modifyChangesInstructionsOfCoveredEntriesOnly() {
    FlowEntry a = entry(0, 10, dst("ff0e:8000::/17"), 1, 1);
    FlowEntry b =
        entry(0, 20, dst("ff0e::/16"), 2, 1).toBuilder().flag(FlowFlag.SEND_FLOW_REM).build();
    FlowEntry c = entry(0, 30, Match.builder().ipv6().build(), 3, 1);
    add(a);
    add(b);
    add(c);
    FlowMod modify =
        FlowMod.builder(FlowModCommand.MODIFY)
            .match(dst("ff0e::/16"))
            .cookie(99)
            .idleTimeout(5)
            .apply(Action.output(4))
            .build();
    assertThat(sw.apply(modify)).isEmpty();
    List<Instruction> out4 = List.of(Instruction.apply(Action.output(4)));
    // Cookie, flags and timeouts stay; only the instructions change.
    assertThat(sw.flows()).containsExactly(c, b.withInstructions(out4), a.withInstructions(out4));
  }

  @Test
  void modifyStrictNeedsPriorityAndIdenticalMatch() {
    FlowEntry a = entry(0, 10, dst("ff0e::/16"), 0, 1);
    add(a);
    FlowMod.Builder strict = FlowMod.builder(FlowModCommand.MODIFY_STRICT).apply(Action.output(2));
    assertThat(sw.apply(strict.priority(11).match(dst("ff0e::/16")).build())).isEmpty();
    assertThat(sw.flows()).containsExactly(a);
    assertThat(sw.apply(strict.priority(10).match(dst("ff0e::/17")).build())).isEmpty();
    assertThat(sw.flows()).containsExactly(a);
    assertThat(sw.apply(strict.priority(10).match(dst("ff0e::/16")).build())).isEmpty();
    assertThat(sw.flows())
        .containsExactly(a.withInstructions(List.of(Instruction.apply(Action.output(2)))));
  }

  @Test
  void aModifyThatSelectsNothingAddsNothing() {
    FlowMod modify =
        FlowMod.builder(FlowModCommand.MODIFY)
            .match(dst("ff0e::/16"))
            .apply(Action.output(2))
            .build();
    assertThat(sw.apply(modify)).isEmpty();
    assertThat(sw.flows()).isEmpty();
    // ... and, as OVS, does not even check that its groups exist.
    FlowMod withGroup =
        FlowMod.builder(FlowModCommand.MODIFY)
            .match(dst("ff0e::/16"))
            .apply(Action.group(9))
            .build();
    assertThat(sw.apply(withGroup)).isEmpty();
    add(entry(0, 1, dst("ff0e::/16"), 0, 1));
    assertThat(sw.apply(withGroup)).contains(OpenFlowError.OFPBAC_BAD_OUT_GROUP);
  }

  @Test
  void cookieMaskFiltersModifyAndDelete() {
    add(entry(0, 1, Match.ANY, 0x10, 1));
    add(entry(0, 2, Match.ANY, 0x11, 1));
    add(entry(0, 3, Match.ANY, 0x21, 1));
    FlowMod modify =
        FlowMod.builder(FlowModCommand.MODIFY).cookie(0x1, 0xf).apply(Action.output(3)).build();
    assertThat(sw.apply(modify)).isEmpty();
    assertThat(sw.flows())
        .extracting(f -> f.applyActions().get(0))
        .containsExactly(Action.output(3), Action.output(3), Action.output(1));
    FlowMod delete = FlowMod.builder(FlowModCommand.DELETE).cookie(0x10, 0xf0).build();
    assertThat(sw.apply(delete)).isEmpty();
    assertThat(sw.flows()).extracting(FlowEntry::cookie).containsExactly(0x21L);
  }

  @Test
  void deleteIsNonStrictPerTableOrAllTables() {
    add(entry(0, 10, dst("ff0e:8000::/17"), 0, 1));
    add(entry(0, 20, dst("ff0e::/16"), 0, 1));
    add(entry(0, 30, dst("ff0f::/16"), 0, 1));
    add(entry(1, 30, dst("ff0e::1"), 0, 1));
    FlowMod delete = FlowMod.builder(FlowModCommand.DELETE).match(dst("ff0e::/16")).build();
    assertThat(sw.apply(delete)).isEmpty();
    assertThat(sw.flows())
        .extracting(f -> f.match().ipv6Dst().toString())
        .containsExactly("ff0f::/16", "ff0e::1");
    FlowMod everyTable =
        FlowMod.builder(FlowModCommand.DELETE)
            .table(FlowMod.ALL_TABLES)
            .match(dst("ff0e::/16"))
            .build();
    assertThat(sw.apply(everyTable)).isEmpty();
    assertThat(sw.flows())
        .extracting(f -> f.match().ipv6Dst().toString())
        .containsExactly("ff0f::/16");
    assertThat(sw.apply(FlowMod.deleteAll())).isEmpty();
    assertThat(sw.flows()).isEmpty();
  }

  @Test
  void deleteStrictRemovesExactlyOneEntry() {
    FlowEntry a = entry(0, 10, dst("ff0e::/16"), 0, 1);
    FlowEntry b = entry(0, 20, dst("ff0e::/16"), 0, 1);
    add(a);
    add(b);
    assertThat(sw.apply(FlowMod.deleteStrict(a))).isEmpty();
    assertThat(sw.flows()).containsExactly(b);
  }

  @Test
  void deleteFiltersByOutPortAndOutGroup() {
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(5, GroupType.ALL, Bucket.of(Action.output(1))))))
        .isEmpty();
    FlowEntry toPort3 = entry(0, 1, Match.ANY, 0, 3);
    FlowEntry writesPort3 = FlowEntry.builder().priority(2).write(Action.output(3)).build();
    FlowEntry toGroup = FlowEntry.builder().priority(3).apply(Action.group(5)).build();
    FlowEntry toPort2 = entry(0, 4, Match.ANY, 0, 2);
    List.of(toPort3, writesPort3, toGroup, toPort2).forEach(this::add);
    assertThat(sw.apply(FlowMod.builder(FlowModCommand.DELETE).outPort(3).build())).isEmpty();
    assertThat(sw.flows()).containsExactly(toPort2, toGroup);
    assertThat(sw.apply(FlowMod.builder(FlowModCommand.DELETE).outGroup(5).build())).isEmpty();
    assertThat(sw.flows()).containsExactly(toPort2);
  }

  @Test
  void deletesAndTimeoutsSendFlowRemovedForFlaggedEntries() {
    FlowEntry flagged =
        entry(0, 1, Match.ANY, 0, 1).toBuilder().flag(FlowFlag.SEND_FLOW_REM).build();
    FlowEntry quiet = entry(0, 2, Match.ANY, 0, 1);
    add(flagged);
    add(quiet);
    assertThat(sw.apply(FlowMod.deleteAll())).isEmpty();
    assertThat(sw.drainFlowRemoved())
        .containsExactly(new FlowRemoved(flagged, FlowRemoved.Reason.DELETE));
    assertThat(sw.drainFlowRemoved()).isEmpty();
  }

  @Test
  void hardAndIdleTimeoutsExpireWithTheClock() {
    FlowEntry hard =
        FlowEntry.builder().priority(1).hardTimeout(10).flag(FlowFlag.SEND_FLOW_REM).build();
    FlowEntry idle =
        FlowEntry.builder()
            .priority(2)
            .match(Match.builder().inPort(1).build())
            .idleTimeout(5)
            .flag(FlowFlag.SEND_FLOW_REM)
            .apply(Action.output(2))
            .build();
    add(hard);
    add(idle);
    PacketHeaders p = PacketHeaders.udp6(Ipv6Address.ZERO, Ipv6Address.ZERO, 1, 1);
    sw.advanceClock(4);
    sw.process(1, p); // idle entry used at t=4
    sw.advanceClock(8);
    assertThat(sw.flows()).hasSize(2);
    assertThat(sw.flowStats()).extracting(FlowStats::packetCount).containsExactly(1L, 0L);
    sw.advanceClock(9);
    assertThat(sw.flows()).containsExactly(hard);
    sw.advanceClock(10);
    assertThat(sw.flows()).isEmpty();
    assertThat(sw.drainFlowRemoved())
        .containsExactly(
            new FlowRemoved(idle, FlowRemoved.Reason.IDLE_TIMEOUT),
            new FlowRemoved(hard, FlowRemoved.Reason.HARD_TIMEOUT));
    assertThatThrownBy(() -> sw.advanceClock(9)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void forwardIsAPureQueryAndProcessCounts() {
    add(FlowEntry.builder().priority(1).apply(Action.output(2)).build());
    PacketHeaders p = PacketHeaders.udp6(Ipv6Address.ZERO, Ipv6Address.ZERO, 1, 1);
    sw.forward(1, p);
    assertThat(sw.flowStats().get(0).packetCount()).isZero();
    sw.process(1, p);
    sw.process(3, p);
    assertThat(sw.flowStats().get(0).packetCount()).isEqualTo(2);
    FlowMod reset =
        FlowMod.builder(FlowModCommand.MODIFY)
            .flag(FlowFlag.RESET_COUNTS)
            .apply(Action.output(3))
            .build();
    assertThat(sw.apply(reset)).isEmpty();
    assertThat(sw.flowStats().get(0).packetCount()).isZero();
  }

  @Test
  void instructionsAreKeptInExecutionOrderAndDuplicatesAreMalformed() {
    FlowEntry e =
        FlowEntry.builder()
            .table(0)
            .gotoTable(1)
            .writeMetadata(1, 1)
            .write(Action.output(1))
            .instructions(Instruction.clearActions())
            .apply(Action.output(2))
            .build();
    assertThat(e.instructions()).extracting(Instruction::order).containsExactly(0, 1, 2, 3, 4);
    assertThatThrownBy(() -> FlowEntry.builder().gotoTable(1).gotoTable(2).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most one instruction of each kind");
    assertThat(FlowEntry.builder().apply().write().build().instructions()).isEmpty();
  }
}
