package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** ovs-ofctl syntax: what OvsFlowSyntax writes, what OvsFlowParser reads (OVS output included). */
class OvsFlowSyntaxTest {
  private static final Match CONTENT =
      Match.builder().ipv6().ipv6Dst("ff0e:c000::/ffff:e000::").build();

  @Test
  void writesFlowsAsOperatorsTypeThem() {
    FlowEntry e =
        FlowEntry.builder()
            .priority(100)
            .match(CONTENT)
            .apply(new Action.SetIpv6Dst(Ipv6Address.parse("ff0e::1")), Action.output(2))
            .build();
    assertThat(e)
        .hasToString(
            "table=0,priority=100,ipv6,ipv6_dst=ff0e:c000::/19,actions=set_field:ff0e::1->ipv6_dst,output:2");
    FlowEntry pipeline =
        FlowEntry.builder()
            .table(1)
            .priority(7)
            .cookie(0x2a)
            .idleTimeout(30)
            .flag(FlowFlag.SEND_FLOW_REM)
            .match(Match.builder().udp6().udpDst(5000).metadata(0x5, 0xff).inPort(3).build())
            .gotoTable(2)
            .writeMetadata(0x10, 0xf0)
            .write(Action.group(4))
            .instructions(Instruction.clearActions())
            .apply(Action.output(OfPort.IN_PORT), Action.output(OfPort.CONTROLLER))
            .build();
    assertThat(OvsFlowSyntax.flow(pipeline))
        .isEqualTo(
            "table=1,priority=7,cookie=0x2a,idle_timeout=30,send_flow_rem,udp6,metadata=0x5/0xff,"
                + "in_port=3,udp_dst=5000,actions=IN_PORT,CONTROLLER:65535,clear_actions,"
                + "write_actions(group:4),write_metadata:0x10/0xf0,goto_table:2");
    assertThat(FlowEntry.builder().build()).hasToString("table=0,priority=32768,actions=drop");
  }

  @Test
  void writesFlowModsPerCommand() {
    FlowMod delete =
        FlowMod.builder(FlowModCommand.DELETE_STRICT)
            .table(2)
            .priority(9)
            .match(CONTENT)
            .cookie(0x10, 0xf0)
            .outPort(3)
            .outGroup(4)
            .build();
    assertThat(OvsFlowSyntax.flowMod(delete))
        .isEqualTo(
            "table=2,priority=9,cookie=0x10/0xf0,out_port=3,out_group=4,ipv6,ipv6_dst=ff0e:c000::/19");
    assertThat(OvsFlowSyntax.ofctlCommand(delete)).containsExactly("del-flows", "--strict");
    assertThat(OvsFlowSyntax.flowMod(FlowMod.deleteAll())).isEmpty();
    FlowMod modify =
        FlowMod.builder(FlowModCommand.MODIFY)
            .table(1)
            .match(CONTENT)
            .apply(Action.output(1))
            .build();
    assertThat(OvsFlowSyntax.flowMod(modify))
        .isEqualTo("table=1,ipv6,ipv6_dst=ff0e:c000::/19,actions=output:1");
    assertThat(OvsFlowSyntax.ofctlCommand(modify)).containsExactly("mod-flows");
  }

  @Test
  void writesGroups() {
    GroupEntry g =
        GroupEntry.of(5, GroupType.ALL, Bucket.of(Action.output(1)), Bucket.of(Action.output(2)));
    assertThat(g)
        .hasToString("group_id=5,type=all,bucket=actions=output:1,bucket=actions=output:2");
    GroupEntry select =
        GroupEntry.of(
            6, GroupType.SELECT, Bucket.weighted(3, Action.output(1)), Bucket.weighted(1));
    assertThat(select)
        .hasToString(
            "group_id=6,type=select,bucket=weight:3,actions=output:1,bucket=weight:1,actions=drop");
    GroupEntry ff = GroupEntry.of(7, GroupType.FF, new Bucket(0, 2, 6, List.of(Action.output(2))));
    assertThat(ff)
        .hasToString("group_id=7,type=ff,bucket=watch_port:2,watch_group:6,actions=output:2");
    assertThat(OvsFlowSyntax.groupMod(GroupMod.delete(GroupEntry.ALL))).isEqualTo("group_id=all");
    assertThat(OvsFlowSyntax.groupMod(GroupMod.delete(3))).isEqualTo("group_id=3");
  }

  @Test
  void writesPacketsForTraces() {
    PacketHeaders p =
        PacketHeaders.udp6(Ipv6Address.parse("::1"), Ipv6Address.parse("ff0e:c000::5"), 1, 2);
    assertThat(OvsFlowSyntax.packet(3, p))
        .isEqualTo("in_port=3,udp6,ipv6_src=::1,ipv6_dst=ff0e:c000::5,udp_src=1,udp_dst=2");
    assertThat(OvsFlowSyntax.packet(OfPort.LOCAL, new PacketHeaders(0x86dd, null, null, 6, 0, 0)))
        .isEqualTo("in_port=LOCAL,ipv6,nw_proto=6,ipv6_src=::,ipv6_dst=::");
    assertThat(OvsFlowSyntax.packet(new PacketHeaders(0x0806, null, null, 0, 0, 0)))
        .isEqualTo("dl_type=0x0806");
  }

  /** Lines as ovs-ofctl 3.1 printed them on this project's machines. */
  @Test
  void readsWhatOvsPrints() {
    FlowEntry e =
        OvsFlowParser.parseFlow(
            "cookie=0x5, duration=0.069s, table=1, n_packets=0, n_bytes=0, idle_timeout=300,"
                + " hard_timeout=600, send_flow_rem check_overlap reset_counts no_packet_counts"
                + " no_byte_counts priority=4,udp6,metadata=0/0xe,in_port=3,"
                + "ipv6_src=ff0e::1/ffff::ffff,tp_src=7,tp_dst=5"
                + " actions=CONTROLLER:128,write_actions(output:2,group:1),write_metadata:0/0x3,goto_table:2");
    assertThat(e.tableId()).isEqualTo(1);
    assertThat(e.priority()).isEqualTo(4);
    assertThat(e.cookie()).isEqualTo(5);
    assertThat(e.idleTimeout()).isEqualTo(300);
    assertThat(e.hardTimeout()).isEqualTo(600);
    assertThat(e.flags()).containsExactlyInAnyOrder(FlowFlag.values());
    assertThat(e.match())
        .isEqualTo(
            Match.builder()
                .udp6()
                .metadata(0, 0xe)
                .inPort(3)
                .ipv6Src("ff0e::1/ffff::ffff")
                .udpSrc(7)
                .udpDst(5)
                .build());
    assertThat(e.instructions())
        .containsExactly(
            Instruction.apply(new Action.Output(OfPort.CONTROLLER, 128)),
            Instruction.write(Action.output(2), Action.group(1)),
            Instruction.writeMetadata(0, 3),
            Instruction.gotoTable(2));
    assertThat(
            OvsFlowParser.parseFlow("priority=5,icmp6,ipv6_dst=ff0e:c000::/19 actions=drop")
                .match())
        .isEqualTo(Match.builder().ipv6().ipProto(58).ipv6Dst("ff0e:c000::/19").build());
    assertThat(
            OvsFlowParser.parseFlow(" priority=1 actions=ALL,FLOOD,LOCAL,IN_PORT,output:9")
                .applyActions())
        .containsExactly(
            Action.output(OfPort.ALL),
            Action.output(OfPort.FLOOD),
            Action.output(OfPort.LOCAL),
            Action.output(OfPort.IN_PORT),
            Action.output(9));
    assertThat(
            OvsFlowParser.parseGroup(
                "group_id=5,type=select,bucket=actions=output:4,bucket=weight:0,actions=output:1"))
        .isEqualTo(
            GroupEntry.of(
                5,
                GroupType.SELECT,
                Bucket.weighted(1, Action.output(4)),
                Bucket.weighted(0, Action.output(1))));
    assertThat(
            OvsFlowParser.parseGroup(
                "group_id=9,type=all,bucket=actions=output:1,IN_PORT,set_field:ff0e::1->ipv6_src,set_field:5->udp_dst"))
        .isEqualTo(
            GroupEntry.of(
                9,
                GroupType.ALL,
                Bucket.of(
                    Action.output(1),
                    Action.output(OfPort.IN_PORT),
                    new Action.SetIpv6Src(Ipv6Address.parse("ff0e::1")),
                    new Action.SetUdpDst(5))));
  }

  @Test
  void refusesWhatTheModelCannotHold() {
    assertThatThrownBy(() -> OvsFlowParser.parseFlow("priority=1,dl_vlan=5 actions=drop"))
        .hasMessageContaining("unsupported flow field 'dl_vlan=5'");
    assertThatThrownBy(() -> OvsFlowParser.parseFlow("priority=1 actions=mod_vlan_vid:5"))
        .hasMessageContaining("unsupported action 'mod_vlan_vid:5'");
    assertThatThrownBy(() -> OvsFlowParser.parseFlow("priority=1"))
        .hasMessageContaining("no actions=");
    assertThatThrownBy(
            () ->
                OvsFlowParser.parseGroup(
                    "group_id=1,type=all,bucket=bucket_id:0,weight:1,watch_port:1,foo:2,actions=drop"))
        .hasMessageContaining("unsupported bucket field 'foo:2'");
  }

  @Provide
  Arbitrary<FlowEntry> flows() {
    return ModelArbitraries.flows();
  }

  @Provide
  Arbitrary<GroupEntry> groups() {
    return ModelArbitraries.groups();
  }

  @Property(tries = 500)
  void flowsRoundTrip(@ForAll("flows") FlowEntry e) {
    assertThat(OvsFlowParser.parseFlow(OvsFlowSyntax.flow(e))).isEqualTo(e);
  }

  @Property(tries = 300)
  void groupsRoundTrip(@ForAll("groups") GroupEntry g) {
    assertThat(OvsFlowParser.parseGroup(OvsFlowSyntax.group(g))).isEqualTo(g);
  }
}
