package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.network.camus.openflow.OpenFlowPipeline;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;

/**
 * The compiled ITCH pipeline on a real Open vSwitch bridge: OVS takes the multi-table flows
 * (metadata state, masked IPv6 destination bits, goto-table) and the ALL groups, holds exactly
 * them, and forwards every event (ofproto/trace) to the ports the software pipeline names — also
 * after an incremental update sent as flow-mods and group-mods. Skipped with -Dnps.skipOvs=true.
 */
class OvsCamusPipelineTest {
  static final QueryAddressLayout LAYOUT = QueryAddressLayout.of(BuiltinSpecs.itch());
  private static OvsBridge bridge;

  @BeforeAll
  static void startOvs() {
    Assumptions.assumeFalse(
        Boolean.getBoolean("nps.skipOvs"), "nps.skipOvs=true: Open vSwitch test skipped");
    OvsBridge.ensureRunning();
    bridge = OvsBridge.create(9, List.of(1, 2, 3, 4, 5, 6, 7, 8, 9));
  }

  @AfterAll
  static void deleteBridge() {
    if (bridge != null) {
      bridge.close();
    }
  }

  @Test
  void ovsRunsTheCompiledPipeline() {
    List<Rule> rules = rules(160);
    List<Event> events = events(80);
    OpenFlowPipeline of =
        new OpenFlowPipeline(LAYOUT, OpenFlowPipeline.Config.ports(1, 0x4e50530000000003L, 7073));
    Compilation c =
        RuleCompiler.compile(LAYOUT.carried(), rules.subList(0, 120), CompileOptions.EXACT);
    bridge.addGroups(of.groups(c.pipeline()));
    bridge.applyBatch(of.flows(c.pipeline()).stream().map(FlowMod::add).toList());
    assertThat(new TreeSet<>(bridge.dumpFlows().stream().map(Object::toString).toList()))
        .isEqualTo(new TreeSet<>(of.flows(c.pipeline()).stream().map(Object::toString).toList()));
    check(c, events);

    c = RuleCompiler.compile(LAYOUT.carried(), rules.subList(30, 160), CompileOptions.EXACT, c);
    OpenFlowPipeline.Changes ch = of.changes(c.diff(), c.pipeline());
    bridge.addGroups(ch.groupsAdded().stream().map(GroupMod::toEntry).toList());
    bridge.applyBatch(ch.flowsAdded());
    bridge.applyBatch(ch.flowsDeleted());
    ch.groupsDeleted().forEach(g -> assertThat(bridge.apply(g)).isEmpty());
    assertThat(new TreeSet<>(bridge.dumpFlows().stream().map(Object::toString).toList()))
        .isEqualTo(new TreeSet<>(of.flows(c.pipeline()).stream().map(Object::toString).toList()));
    assertThat(bridge.dumpGroups()).containsExactlyInAnyOrderElementsOf(of.groups(c.pipeline()));
    check(c, events);
  }

  private static void check(Compilation c, List<Event> events) {
    SoftwarePipeline soft = SoftwarePipeline.of(c.pipeline());
    int reached = 0;
    for (Event e : events) {
      PacketHeaders h =
          PacketHeaders.udp6(Ipv6Address.parse("fd00::1"), LAYOUT.address(e), 40000, 7073);
      Forwarding ovs = OvsTraceParser.parse(bridge.trace(9, h, 1), h, bridge.datapathToOpenFlow());
      TreeSet<Long> want = new TreeSet<>();
      for (int p : soft.actions(LAYOUT.carried().values(e))) {
        want.add((long) p);
      }
      assertThat(new TreeSet<>(ovs.ports())).as("%s", e).isEqualTo(want);
      reached += want.isEmpty() ? 0 : 1;
    }
    assertThat(reached).isGreaterThan(5);
  }

  private static List<Rule> rules(int n) {
    Workload w =
        new ItchModel(ItchModel.Variant.RICH, 12, 1.0)
            .generate(new WorkloadSpec(3, n, 0, 8, HostAssignment.RANDOM, Arrival.NONE));
    List<Rule> out = new ArrayList<>();
    for (var s : w.subscriptions()) {
      out.add(
          new Rule(
              "r" + out.size(),
              s.filter(),
              Normalizer.toDnf(FilterParser.parse(LAYOUT.spec().schema(), s.filter())),
              new int[] {1 + Math.floorMod(s.ports().get(0), 8)}));
    }
    return out;
  }

  private static List<Event> events(int n) {
    return new ItchModel(ItchModel.Variant.RICH, 12, 1.0)
        .generate(new WorkloadSpec(4, 0, n, 8, HostAssignment.RANDOM, Arrival.NONE))
        .events()
        .toList();
  }
}
