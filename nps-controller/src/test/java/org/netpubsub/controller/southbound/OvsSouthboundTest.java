package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.ovs.OvsBridge;
import org.netpubsub.controller.ovs.OvsCommands;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowFlag;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.OpenFlowError;

/**
 * The southbound against a real Open vSwitch 3.x bridge: handshake, an acknowledged batch (flows
 * over two tables, masked IPv6 matches, a replication group with set_field), the tables as
 * ovs-ofctl and our flow-stats see them, errors, and reconciliation after ovs-vswitchd restarts
 * with empty tables. Fails if OVS cannot be used, unless {@code -Dnps.skipOvs=true}.
 */
class OvsSouthboundTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  static List<FlowEntry> pipeline() {
    Match udp6 = Match.builder().udp6().build();
    return List.of(
        FlowEntry.builder()
            .priority(100)
            .match(udp6.toBuilder().ipv6Dst("ff0e:1::/32").build())
            .apply(Action.group(1))
            .cookie(0x11)
            .build(),
        FlowEntry.builder()
            .priority(90)
            .match(Match.builder().ipv6().ipv6Dst("ff0e:8000::/ffff:c000::").build())
            .writeMetadata(0x2, 0xf)
            .gotoTable(1)
            .flag(FlowFlag.SEND_FLOW_REM)
            .build(),
        FlowEntry.builder()
            .table(1)
            .priority(10)
            .match(Match.builder().ipv6().metadata(0x2, 0xf).build())
            .apply(Action.output(3))
            .idleTimeout(3600)
            .build(),
        FlowEntry.builder()
            .priority(5)
            .match(Match.builder().inPort(2).udp6().udpDst(5000).build())
            .apply(Action.output(OfPort.CONTROLLER))
            .build());
  }

  static GroupEntry replication() {
    return GroupEntry.of(
        1,
        GroupType.ALL,
        Bucket.of(new Action.SetIpv6Dst(Ipv6Address.parse("ff0e:1::a")), Action.output(1)),
        Bucket.of(new Action.SetIpv6Dst(Ipv6Address.parse("ff0e:1::b")), Action.output(2)));
  }

  @Test
  void handshakeBatchErrorsAndReconcileAfterRestart() throws Exception {
    Assumptions.assumeFalse(
        Boolean.getBoolean("nps.skipOvs"), "nps.skipOvs=true: Open vSwitch test skipped");
    OvsCommands.ensureRunning();
    long start = System.nanoTime();
    RecordingListener events = new RecordingListener();
    try (OpenFlowServer server =
            OpenFlowServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .echoInterval(Duration.ofSeconds(1))
                .deadPeerTimeout(Duration.ofSeconds(5))
                .barrierTimeout(Duration.ofSeconds(5))
                .listener(events)
                .build()
                .start();
        OvsBridge bridge =
            OvsBridge.create("npssb", 3, "127.0.0.1", server.localAddress().getPort())) {
      long dpid = bridge.datapathId();
      assertThat(bridge.reportedDatapathId()).isEqualTo(dpid);
      SwitchHandle sw =
          Poll.value("OVS connects", WAIT, () -> server.switchHandle(dpid).orElse(null));
      assertThat(sw.numTables()).isEqualTo(254);
      assertThat(sw.ports())
          .extracting(PortInfo::number)
          .containsExactlyInAnyOrder(1L, 2L, 3L, OfPort.LOCAL);
      assertThat(sw.ports())
          .filteredOn(p -> p.number() == 1)
          .extracting(PortInfo::name)
          .containsExactly(bridge.name() + "-p1");

      // An acknowledged batch: the group first, then flows that use it.
      List<FlowEntry> flows = pipeline();
      List<SwitchMod> batch = new java.util.ArrayList<>();
      batch.add(SwitchMod.of(GroupMod.add(replication())));
      flows.forEach(e -> batch.add(SwitchMod.of(FlowMod.add(e))));
      Poll.get(sw.apply(batch), WAIT);
      assertThat(bridge.dumpFlows()).containsExactlyInAnyOrderElementsOf(flows);
      assertThat(bridge.dumpGroups()).containsExactly(replication());
      assertThat(Poll.get(sw.flowStats(), WAIT)).containsExactlyInAnyOrderElementsOf(flows);
      assertThat(Poll.get(sw.groupDesc(), WAIT)).containsExactly(replication());

      // Refused messages fail the batch with OVS's errors; the good one in between is applied.
      FlowEntry backwards =
          FlowEntry.builder().table(2).priority(1).match(Match.ANY).gotoTable(1).build();
      FlowEntry unknownGroup =
          FlowEntry.builder()
              .priority(1)
              .match(Match.builder().ipv6().build())
              .apply(Action.group(77))
              .build();
      FlowEntry fine = FlowEntry.builder().table(2).priority(1).match(Match.ANY).build();
      Throwable t =
          Poll.failure(
              sw.applyFlows(
                  List.of(FlowMod.add(backwards), FlowMod.add(fine), FlowMod.add(unknownGroup))),
              WAIT);
      assertThat(t).isInstanceOf(BatchFailedException.class);
      BatchFailedException failed = (BatchFailedException) t;
      assertThat(failed.errors()).hasSize(2);
      assertThat(failed.errors().get(0).mod()).isEqualTo(SwitchMod.of(FlowMod.add(backwards)));
      assertThat(failed.errors().get(0).error().known())
          .contains(OpenFlowError.OFPBIC_BAD_TABLE_ID);
      assertThat(failed.errors().get(1).mod()).isEqualTo(SwitchMod.of(FlowMod.add(unknownGroup)));
      assertThat(failed.errors().get(1).error().known())
          .contains(OpenFlowError.OFPBAC_BAD_OUT_GROUP);
      assertThat(bridge.dumpFlows()).contains(fine).hasSize(flows.size() + 1);

      // The controller wants exactly the pipeline; ovs-vswitchd restarts and forgets every flow.
      server.desiredState().put(dpid, new DesiredState(flows, List.of(replication())));
      OvsCommands.restartVswitchd();
      Poll.until("OVS reconnects and is reconciled", WAIT, () -> events.reconciled.size() == 1);
      ReconcileResult r = events.reconciled.get(0);
      assertThat(events.log)
          .containsSubsequence(
              "connected " + dpid, "disconnected " + dpid + " CLOSED_BY_SWITCH",
              "connected " + dpid, "reconciled " + dpid);
      assertThat(r.flowsBefore()).isZero();
      assertThat(r.plan().flowsAdded()).isEqualTo(flows.size());
      assertThat(r.plan().groupsAdded()).isEqualTo(1);
      assertThat(r.plan().mods()).hasSize(flows.size() + 1);
      assertThat(bridge.dumpFlows()).containsExactlyInAnyOrderElementsOf(flows);
      assertThat(bridge.dumpGroups()).containsExactly(replication());
      assertThat(bridge.reportedDatapathId()).isEqualTo(dpid);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.println(
        "OvsSouthboundTest: " + OvsCommands.version() + ", " + took.toMillis() + " ms");
    assertThat(took).isLessThan(Duration.ofSeconds(60));
  }
}
