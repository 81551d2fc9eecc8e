package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The one pipeline interpreter under the simulated switch's and the invariant checker's policies,
 * on hand-made tables, where the policies differ: reserved ports, a backward goto (which the switch
 * refuses to install, so only a {@link Datapath} of its own can hold one), select groups.
 */
class PipelinePolicyTest {
  private static final PacketHeaders P =
      PacketHeaders.udp6(Ipv6Address.ZERO, Ipv6Address.parse("ff0e::1"), 1, 2);
  private static final Pipeline SWITCH =
      new Pipeline(PipelinePolicy.simulatedSwitch(TableMissBehavior.EXECUTE_ACTION_SET));
  private static final Pipeline CHECKER = new Pipeline(PipelinePolicy.INVARIANT_CHECKER);

  /** Tables as lists in lookup order, groups by id, ports 1-3 and LOCAL, all up. */
  private record Tables(List<List<FlowEntry>> tables, Map<Long, GroupEntry> groups)
      implements Datapath {
    @Override
    public FlowEntry lookup(int table, PacketHeaders h, long inPort, long metadata) {
      return tables.get(table).stream()
          .filter(f -> f.match().matches(h, inPort, metadata))
          .findFirst()
          .orElse(null);
    }

    @Override
    public GroupEntry group(long id) {
      return groups.get(id);
    }

    @Override
    public boolean hasPort(long port) {
      return port >= 1 && port <= 3 || port == OfPort.LOCAL;
    }

    @Override
    public boolean isLive(long port) {
      return hasPort(port);
    }

    @Override
    public Iterable<Long> floodPorts() {
      return List.of(1L, 2L, 3L, OfPort.LOCAL);
    }
  }

  private static Tables tables(List<FlowEntry> t0, List<FlowEntry> t1, GroupEntry... groups) {
    Map<Long, GroupEntry> byId = new java.util.HashMap<>();
    for (GroupEntry g : groups) {
      byId.put(g.groupId(), g);
    }
    return new Tables(List.of(t0, t1), byId);
  }

  private static List<Long> ports(Pipeline.Outcome o) {
    List<Long> out = new ArrayList<>(o.egresses().stream().map(Egress::port).toList());
    out.sort(null);
    return out;
  }

  @Test
  void reservedPortsAreCopiesForTheSwitchAndEndsForTheChecker() {
    FlowEntry f =
        FlowEntry.builder()
            .apply(
                Action.output(OfPort.CONTROLLER),
                Action.output(OfPort.LOCAL),
                Action.output(OfPort.ALL))
            .build();
    Tables t = tables(List.of(f), List.of());
    assertThat(ports(SWITCH.run(t, 1, P)))
        .containsExactly(2L, 3L, OfPort.CONTROLLER, OfPort.LOCAL, OfPort.LOCAL);
    assertThat(ports(CHECKER.run(t, 1, P))).containsExactly(2L, 3L);
  }

  @Test
  void aBackwardGotoIsFollowedByTheSwitchAndEndsThePipelineForTheChecker() {
    FlowEntry first =
        FlowEntry.builder()
            .match(Match.builder().metadata(0, 1).build())
            .instructions(
                new Instruction.WriteActions(List.of(Action.output(2))), Instruction.gotoTable(1))
            .build();
    FlowEntry again =
        FlowEntry.builder()
            .priority(10)
            .match(Match.builder().metadata(1, 1).build())
            .apply(Action.output(3))
            .build();
    FlowEntry back =
        FlowEntry.builder()
            .table(1)
            .instructions(Instruction.writeMetadata(1, 1), Instruction.gotoTable(0))
            .build();
    Tables t = tables(List.of(again, first), List.of(back));
    // the switch goes back to table 0, where the metadata now selects another entry: 3, then the
    // action set's output 2; the checker stops at the backward goto and runs the action set: 2
    assertThat(ports(SWITCH.run(t, 1, P))).containsExactly(2L, 3L);
    assertThat(ports(CHECKER.run(t, 1, P))).containsExactly(2L);
  }

  @Test
  void aSelectGroupRunsOneBucketForTheSwitchAndEveryLiveOneForTheChecker() {
    GroupEntry g =
        new GroupEntry(
            1,
            GroupType.SELECT,
            List.of(
                new Bucket(1, OfPort.ANY, FlowMod.ANY_GROUP, List.of(Action.output(1))),
                new Bucket(1, OfPort.ANY, FlowMod.ANY_GROUP, List.of(Action.output(2))),
                new Bucket(0, OfPort.ANY, FlowMod.ANY_GROUP, List.of(Action.output(3)))));
    Tables t = tables(List.of(FlowEntry.builder().apply(Action.group(1)).build()), List.of(), g);
    assertThat(ports(SWITCH.run(t, 4, P))).hasSize(1).containsAnyOf(1L, 2L);
    assertThat(ports(CHECKER.run(t, 4, P))).containsExactly(1L, 2L); // weight 0: never chosen
  }

  @Test
  void bothFailAPacketWhoseGroupsNestTooDeep() {
    List<GroupEntry> chain = new ArrayList<>();
    for (int i = 0; i < PipelinePolicy.MAX_GROUP_DEPTH + 1; i++) {
      chain.add(
          new GroupEntry(
              i,
              GroupType.INDIRECT,
              List.of(new Bucket(0, OfPort.ANY, FlowMod.ANY_GROUP, List.of(Action.group(i + 1))))));
    }
    Tables t =
        tables(
            List.of(FlowEntry.builder().apply(Action.output(2), Action.group(0)).build()),
            List.of(),
            chain.toArray(GroupEntry[]::new));
    for (Pipeline p : List.of(SWITCH, CHECKER)) {
      Pipeline.Outcome o = p.run(t, 1, P);
      assertThat(o.translationFailed()).isTrue();
      assertThat(o.egresses()).isEmpty();
    }
    assertThat(Set.of(SWITCH.policy(), CHECKER.policy())).hasSize(2);
  }
}
