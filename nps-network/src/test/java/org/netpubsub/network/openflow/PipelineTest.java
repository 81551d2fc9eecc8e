package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** Forwarding through tables: instructions, the action set, outputs, misses (OF1.3 §5). */
class PipelineTest {
  private static final Ipv6Address SRC = Ipv6Address.parse("2001:db8::1");
  private static final PacketHeaders P =
      PacketHeaders.udp6(SRC, Ipv6Address.parse("ff0e:c000::5"), 1, 2);
  private static final Match IPV6 = Match.builder().ipv6().build();

  private final SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4).build();

  private void add(FlowEntry.Builder b) {
    FlowEntry e = b.build();
    assertThat(sw.apply(FlowMod.add(e))).as("%s", e).isEmpty();
  }

  private static Action setDst(String a) {
    return new Action.SetIpv6Dst(Ipv6Address.parse(a));
  }

  private static PacketHeaders dst(String a) {
    return P.withIpv6Dst(Ipv6Address.parse(a));
  }

  @Test
  void noEntryMeansDrop() {
    assertThat(sw.forward(1, P)).isEqualTo(Forwarding.DROP);
  }

  @Test
  void highestPriorityWinsAndNonCidrMasksMatch() {
    add(FlowEntry.builder().priority(10).match(IPV6).apply(Action.output(2)));
    add(
        FlowEntry.builder()
            .priority(20)
            .match(Match.builder().ipv6().ipv6Dst("ff0e:c000::/ffff:e000::").build())
            .apply(Action.output(3)));
    add(
        FlowEntry.builder()
            .priority(30)
            .match(Match.builder().ipv6().ipv6Dst("ff0e:0001::/ffff:0001::").build())
            .apply(Action.output(4)));
    assertThat(sw.forward(1, P).ports()).containsExactly(3L);
    assertThat(sw.forward(1, dst("ff0e:c001::")).ports()).containsExactly(4L);
    assertThat(sw.forward(1, dst("ff0e:2000::")).ports()).containsExactly(2L);
  }

  @Test
  void applyActionsRunAtOnceAndInOrder() {
    add(
        FlowEntry.builder()
            .match(IPV6)
            .apply(
                Action.output(2),
                setDst("ff0e::9"),
                Action.output(3),
                Action.output(OfPort.CONTROLLER)));
    assertThat(sw.forward(1, P))
        .isEqualTo(
            Forwarding.of(
                new Egress(2, P),
                new Egress(3, dst("ff0e::9")),
                new Egress(OfPort.CONTROLLER, dst("ff0e::9"))));
  }

  @Test
  void actionSetRunsSetFieldThenGroupAndIgnoresOutputWhenAGroupIsThere() {
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(1, GroupType.ALL, Bucket.of(Action.output(4))))))
        .isEmpty();
    // Written in the "wrong" order: output, group, set_field; executed set_field, group.
    add(
        FlowEntry.builder()
            .match(IPV6)
            .write(Action.output(2), Action.group(1), setDst("ff0e::7")));
    assertThat(sw.forward(1, P)).isEqualTo(Forwarding.of(new Egress(4, dst("ff0e::7"))));
  }

  @Test
  void actionSetKeepsOneActionPerKindLastWriteWins() {
    add(
        FlowEntry.builder()
            .match(IPV6)
            .write(Action.output(2), setDst("ff0e::1"), Action.output(3), setDst("ff0e::2"))
            .gotoTable(1));
    add(
        FlowEntry.builder()
            .table(1)
            .match(IPV6)
            .write(new Action.SetIpv6Src(Ipv6Address.parse("::5"))));
    assertThat(sw.forward(1, P))
        .isEqualTo(
            Forwarding.of(new Egress(3, dst("ff0e::2").withIpv6Src(Ipv6Address.parse("::5")))));
  }

  @Test
  void clearActionsEmptiesTheActionSet() {
    add(FlowEntry.builder().write(Action.output(2)).gotoTable(1));
    add(FlowEntry.builder().table(1).instructions(Instruction.clearActions()).gotoTable(2));
    add(FlowEntry.builder().table(2).apply(Action.output(4)));
    assertThat(sw.forward(1, P).ports()).containsExactly(4L);
  }

  @Test
  void metadataCarriesStateBetweenTables() {
    add(
        FlowEntry.builder()
            .match(Match.builder().inPort(1).build())
            .writeMetadata(0x50, 0xf0)
            .gotoTable(1));
    add(
        FlowEntry.builder()
            .match(Match.builder().inPort(2).build())
            .writeMetadata(0x60, 0xf0)
            .gotoTable(1));
    add(
        FlowEntry.builder()
            .table(1)
            .match(Match.builder().metadata(0x50, 0xf0).build())
            .writeMetadata(0x3, 0x3)
            .gotoTable(2));
    add(
        FlowEntry.builder()
            .table(1)
            .match(Match.builder().metadata(0x60, 0xf0).build())
            .apply(Action.output(4)));
    add(
        FlowEntry.builder()
            .table(2)
            .match(Match.builder().metadata(0x53, 0xff).build())
            .apply(Action.output(3)));
    assertThat(sw.forward(1, P).ports()).containsExactly(3L);
    assertThat(sw.forward(2, P).ports()).containsExactly(4L);
    assertThat(sw.forward(3, P)).isEqualTo(Forwarding.DROP);
  }

  @Test
  void rewritesInEarlierTablesAreSeenByLaterTables() {
    add(FlowEntry.builder().match(IPV6).apply(setDst("ff0e::42")).gotoTable(1));
    add(
        FlowEntry.builder()
            .table(1)
            .match(Match.builder().ipv6().ipv6Dst("ff0e::42").build())
            .apply(Action.output(2)));
    assertThat(sw.forward(1, P)).isEqualTo(Forwarding.of(new Egress(2, dst("ff0e::42"))));
  }

  @Test
  void aMissInALaterTableStillRunsTheActionSetAsOvsDoes() {
    add(FlowEntry.builder().apply(Action.output(3)).write(Action.output(2)).gotoTable(1));
    assertThat(sw.forward(1, P).ports()).containsExactly(2L, 3L);
    SimulatedSwitch strict =
        SimulatedSwitch.builder().ports(1, 2, 3).missBehavior(TableMissBehavior.DROP).build();
    strict.apply(
        FlowMod.add(
            FlowEntry.builder()
                .apply(Action.output(3))
                .write(Action.output(2))
                .gotoTable(1)
                .build()));
    assertThat(strict.forward(1, P).ports()).containsExactly(3L);
  }

  @Test
  void reservedPortsAndTheIngressPort() {
    add(FlowEntry.builder().match(Match.builder().inPort(1).build()).apply(Action.output(1)));
    add(
        FlowEntry.builder()
            .match(Match.builder().inPort(2).build())
            .apply(Action.output(OfPort.IN_PORT)));
    add(
        FlowEntry.builder()
            .match(Match.builder().inPort(3).build())
            .apply(Action.output(OfPort.ALL)));
    add(
        FlowEntry.builder()
            .match(Match.builder().inPort(4).build())
            .apply(Action.output(9), Action.output(OfPort.LOCAL)));
    assertThat(sw.forward(1, P))
        .as("output to the ingress port needs IN_PORT")
        .isEqualTo(Forwarding.DROP);
    assertThat(sw.forward(2, P).ports()).containsExactly(2L);
    assertThat(sw.forward(3, P).ports()).containsExactly(1L, 2L, 4L, OfPort.LOCAL);
    assertThat(sw.forward(4, P).ports()).as("port 9 does not exist").containsExactly(OfPort.LOCAL);
    SimulatedSwitch noLocal = SimulatedSwitch.builder().ports(1, 2).localPort(false).build();
    noLocal.apply(
        FlowMod.add(
            FlowEntry.builder()
                .apply(Action.output(OfPort.FLOOD), Action.output(OfPort.LOCAL))
                .build()));
    assertThat(noLocal.forward(1, P).ports()).containsExactly(2L);
  }

  @Test
  void setFieldLeavesPacketsWithoutTheFieldAlone() {
    assertThat(
            sw.apply(
                GroupMod.add(
                    GroupEntry.of(
                        1,
                        GroupType.ALL,
                        Bucket.of(setDst("ff0e::1"), new Action.SetUdpDst(9), Action.output(2))))))
        .isEmpty();
    add(FlowEntry.builder().apply(Action.group(1)));
    PacketHeaders ipv4 = new PacketHeaders(PacketHeaders.ETH_TYPE_IPV4, null, null, 17, 5, 6);
    assertThat(sw.forward(1, ipv4)).isEqualTo(Forwarding.of(new Egress(2, ipv4.withUdpDst(9))));
  }

  @Test
  void equalPriorityMatchesAreAChoiceOfTheSwitch() {
    add(FlowEntry.builder().priority(5).match(IPV6).apply(Action.output(2)));
    add(
        FlowEntry.builder()
            .priority(5)
            .match(Match.builder().inPort(1).build())
            .apply(Action.output(3)));
    assertThat(sw.forward(1, P).ports()).containsExactly(2L); // the older entry
    assertThat(sw.possibleForwardings(1, P))
        .containsExactlyInAnyOrder(
            Forwarding.of(new Egress(2, P)), Forwarding.of(new Egress(3, P)));
    assertThat(sw.possibleForwardings(4, P)).containsExactly(Forwarding.of(new Egress(2, P)));
  }
}
