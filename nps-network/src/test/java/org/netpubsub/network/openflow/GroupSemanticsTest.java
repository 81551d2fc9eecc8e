package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** Group-mods and group execution in the simulated switch. */
class GroupSemanticsTest {
  private static final Ipv6Address DST = Ipv6Address.parse("ff0e:c000::5");
  private static final PacketHeaders P =
      PacketHeaders.udp6(Ipv6Address.parse("2001:db8::1"), DST, 1, 2);

  private final SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4).build();

  private void ok(GroupMod gm) {
    assertThat(sw.apply(gm)).as("%s", gm).isEmpty();
  }

  private void ok(FlowMod fm) {
    assertThat(sw.apply(fm)).as("%s", fm).isEmpty();
  }

  private void toGroupFromTable0(long group) {
    ok(FlowMod.add(FlowEntry.builder().priority(1).apply(Action.group(group)).build()));
  }

  private static Action setDst(String a) {
    return new Action.SetIpv6Dst(Ipv6Address.parse(a));
  }

  private static Egress out(long port, PacketHeaders h) {
    return new Egress(port, h);
  }

  @Test
  void groupModErrors() {
    GroupEntry g = GroupEntry.of(1, GroupType.ALL, Bucket.of(Action.output(1)));
    ok(GroupMod.add(g));
    assertThat(sw.apply(GroupMod.add(g))).contains(OpenFlowError.OFPGMFC_GROUP_EXISTS);
    assertThat(sw.apply(GroupMod.modify(GroupEntry.of(2, GroupType.ALL))))
        .contains(OpenFlowError.OFPGMFC_UNKNOWN_GROUP);
    assertThat(sw.apply(new GroupMod(GroupModCommand.ADD, 0xffffff01L, GroupType.ALL, List.of())))
        .contains(OpenFlowError.OFPGMFC_INVALID_GROUP);
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(3, GroupType.INDIRECT))))
        .contains(OpenFlowError.OFPGMFC_INVALID_GROUP);
    assertThat(
            sw.apply(GroupMod.add(GroupEntry.of(3, GroupType.INDIRECT, Bucket.of(), Bucket.of()))))
        .contains(OpenFlowError.OFPGMFC_INVALID_GROUP);
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(3, GroupType.ALL, Bucket.weighted(2)))))
        .contains(OpenFlowError.OFPGMFC_INVALID_GROUP);
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(3, GroupType.ALL, Bucket.watching(1)))))
        .contains(OpenFlowError.OFPGMFC_WATCH_UNSUPPORTED);
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(3, GroupType.FF, Bucket.of(Action.output(1))))))
        .contains(OpenFlowError.OFPGMFC_INVALID_GROUP);
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(3, GroupType.ALL, Bucket.of(Action.output(0))))))
        .contains(OpenFlowError.OFPBAC_BAD_OUT_PORT);
    assertThat(
            sw.apply(new GroupMod(GroupModCommand.DELETE, 1, GroupType.ALL, List.of(Bucket.of()))))
        .contains(OpenFlowError.OFPGMFC_INVALID_GROUP);
    SimulatedSwitch one = SimulatedSwitch.builder().maxGroups(1).build();
    assertThat(one.apply(GroupMod.add(GroupEntry.of(1, GroupType.ALL)))).isEmpty();
    assertThat(one.apply(GroupMod.add(GroupEntry.of(2, GroupType.ALL))))
        .contains(OpenFlowError.OFPGMFC_OUT_OF_GROUPS);
    assertThat(sw.groups()).containsExactly(g);
  }

  @Test
  void deletingAGroupDeletesTheFlowsThatUseIt() {
    ok(GroupMod.add(GroupEntry.of(1, GroupType.ALL, Bucket.of(Action.output(1)))));
    ok(GroupMod.add(GroupEntry.of(2, GroupType.ALL, Bucket.of(Action.group(1)))));
    FlowEntry applies =
        FlowEntry.builder().priority(1).apply(Action.group(1)).flag(FlowFlag.SEND_FLOW_REM).build();
    FlowEntry writes = FlowEntry.builder().priority(2).write(Action.group(1)).build();
    FlowEntry other = FlowEntry.builder().priority(3).apply(Action.group(2)).build();
    List.of(applies, writes, other).forEach(e -> ok(FlowMod.add(e)));
    ok(GroupMod.delete(1));
    assertThat(sw.flows()).containsExactly(other);
    assertThat(sw.drainFlowRemoved())
        .containsExactly(new FlowRemoved(applies, FlowRemoved.Reason.GROUP_DELETE));
    // Group 2 still chains to the deleted group 1: that bucket now does nothing (as OVS).
    assertThat(sw.groups()).extracting(GroupEntry::groupId).containsExactly(2L);
    assertThat(sw.forward(3, P)).isEqualTo(Forwarding.DROP);
    ok(GroupMod.delete(77)); // deleting a missing group is no error
    ok(GroupMod.delete(GroupEntry.ALL));
    assertThat(sw.groups()).isEmpty();
    assertThat(sw.flows()).isEmpty();
  }

  @Test
  void allGroupRunsEveryBucketOnItsOwnCopy() {
    ok(
        GroupMod.add(
            GroupEntry.of(
                5,
                GroupType.ALL,
                Bucket.of(setDst("ff0e::1"), Action.output(2)),
                Bucket.of(Action.output(3)),
                Bucket.of(setDst("ff0e::4"), Action.output(4)))));
    ok(
        FlowMod.add(
            FlowEntry.builder()
                .priority(1)
                .match(Match.builder().ipv6().build())
                .apply(Action.group(5), Action.output(2))
                .build()));
    assertThat(sw.forward(1, P))
        .isEqualTo(
            Forwarding.of(
                out(2, P.withIpv6Dst(Ipv6Address.parse("ff0e::1"))),
                out(3, P),
                out(4, P.withIpv6Dst(Ipv6Address.parse("ff0e::4"))),
                out(2, P))); // after the group the packet is unchanged
  }

  @Test
  void selectGroupPicksOneWeightedLiveBucketByHash() {
    ok(
        GroupMod.add(
            GroupEntry.of(
                7,
                GroupType.SELECT,
                Bucket.weighted(1, Action.output(2)),
                Bucket.weighted(0, Action.output(3)), // weight 0: never
                Bucket.weighted(3, Action.output(4)))));
    toGroupFromTable0(7);
    Forwarding f = sw.forward(1, P);
    assertThat(f.ports()).hasSize(1).containsAnyOf(2L, 4L);
    assertThat(sw.forward(1, P)).isEqualTo(f); // deterministic
    assertThat(sw.possibleForwardings(1, P))
        .containsExactlyInAnyOrder(Forwarding.of(out(2, P)), Forwarding.of(out(4, P)));
    // Over many flows of packets, both buckets are used, roughly 1:3.
    int[] counts = new int[5];
    for (int i = 0; i < 400; i++) {
      counts[(int) (long) sw.forward(1, P.withUdpSrc(i)).ports().get(0)]++;
    }
    assertThat(counts[2]).isBetween(60, 140);
    assertThat(counts[4]).isBetween(260, 340);
  }

  @Test
  void indirectGroupRunsItsBucket() {
    ok(GroupMod.add(GroupEntry.of(2, GroupType.INDIRECT, Bucket.of(Action.output(3)))));
    toGroupFromTable0(2);
    assertThat(sw.forward(1, P)).isEqualTo(Forwarding.of(out(3, P)));
  }

  @Test
  void fastFailoverTakesTheFirstLiveBucket() {
    ok(GroupMod.add(GroupEntry.of(9, GroupType.ALL, Bucket.of(Action.output(4)))));
    ok(
        GroupMod.add(
            GroupEntry.of(
                3,
                GroupType.FF,
                Bucket.watching(2, Action.output(2)),
                new Bucket(0, OfPort.ANY, 9, List.of(Action.output(3))))));
    toGroupFromTable0(3);
    assertThat(sw.forward(1, P).ports()).containsExactly(2L);
    sw.setPortLive(2, false);
    assertThat(sw.forward(1, P).ports()).containsExactly(3L); // group 9 has a live bucket
    ok(GroupMod.modify(GroupEntry.of(9, GroupType.FF, Bucket.watching(4, Action.output(4)))));
    sw.setPortLive(4, false);
    assertThat(sw.forward(1, P)).isEqualTo(Forwarding.DROP);
    sw.setPortLive(2, true);
    assertThat(sw.forward(1, P).ports()).containsExactly(2L);
  }

  @Test
  void groupsNestUpToOvsDepthLimit() {
    // Groups 1..64 each output to port 2 and chain to the next; group 65 does not exist.
    for (long g = 1; g <= 64; g++) {
      ok(
          GroupMod.add(
              GroupEntry.of(
                  g, GroupType.ALL, Bucket.of(Action.output(2)), Bucket.of(Action.group(g + 1)))));
    }
    ok(
        FlowMod.add(
            FlowEntry.builder()
                .priority(1)
                .match(Match.builder().inPort(1).build())
                .apply(Action.group(2))
                .build()));
    ok(
        FlowMod.add(
            FlowEntry.builder()
                .priority(1)
                .match(Match.builder().inPort(3).build())
                .apply(Action.group(1))
                .build()));
    // From group 2: 63 groups nest, the 64th level finds no group 65: 63 copies.
    assertThat(sw.forward(1, P).ports()).hasSize(63).containsOnly(2L);
    // From group 1: 64 groups nest, then one more group action: OVS fails the translation.
    assertThat(sw.forward(3, P)).isEqualTo(Forwarding.FAILED);
  }

  @Test
  void aGroupLoopFailsTheTranslationInsteadOfHanging() {
    ok(
        GroupMod.add(
            GroupEntry.of(
                1, GroupType.ALL, Bucket.of(Action.output(2)), Bucket.of(Action.group(2)))));
    ok(
        GroupMod.add(
            GroupEntry.of(
                2, GroupType.ALL, Bucket.of(Action.group(1)), Bucket.of(Action.group(1)))));
    toGroupFromTable0(1);
    assertThat(sw.forward(1, P)).isEqualTo(Forwarding.FAILED);
    assertThat(sw.possibleForwardings(1, P)).isEqualTo(Set.of(Forwarding.FAILED));
  }
}
