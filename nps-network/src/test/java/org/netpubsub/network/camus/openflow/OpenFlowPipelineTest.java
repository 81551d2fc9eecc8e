package org.netpubsub.network.camus.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.SimulatedSwitch;

/**
 * The OpenFlow target on the simulated switch (which follows Open vSwitch): for ITCH rules, every
 * event's datagram — its query fields packed into the IPv6 destination — leaves by exactly the
 * ports the software pipeline names, never fewer than its filters match; after incremental updates
 * applied as flow-mods and group-mods, still.
 */
class OpenFlowPipelineTest {
  static final MessageSpec ITCH = BuiltinSpecs.itch();
  static final QueryAddressLayout LAYOUT = QueryAddressLayout.of(ITCH);
  static final int PORTS = 8;
  static final long IN_PORT = 9;

  @Test
  void itchFieldsThatFitTravelInTheAddress() {
    assertThat(LAYOUT.carried().fields())
        .extracting(q -> q.name())
        .containsExactly("stock", "price", "side");
    assertThat(LAYOUT.leftOut()).containsExactly("shares");
    Event e = quote("GOOGL", 0x01020304, 100, "S");
    Ipv6Address a = LAYOUT.address(e);
    // ff0e | "GOOGL   " | price 01020304 | 'S'
    assertThat(a).isEqualTo(Ipv6Address.parse("ff0e:474f:4f47:4c20:2020:0102:0304:5300"));
    assertThat(LAYOUT.match(1, 0x01020304, 32).matches(a)).isTrue();
    assertThat(LAYOUT.match(1, 0x01020000, 16).matches(a)).isTrue();
    assertThat(LAYOUT.match(1, 0x01030000, 16).matches(a)).isFalse();
  }

  @Test
  void switchForwardsLikeTheSoftwarePipelineAcrossUpdates() {
    List<Rule> rules = rules(400, 1);
    List<Event> events = events(300, 2);
    Compilation c =
        RuleCompiler.compile(LAYOUT.carried(), rules.subList(0, 300), CompileOptions.EXACT);
    OpenFlowPipeline of =
        new OpenFlowPipeline(LAYOUT, OpenFlowPipeline.Config.ports(1, 0x4e5053_00000003L, 7073));
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4, 5, 6, 7, 8, 9).build();
    for (GroupEntry g : of.groups(c.pipeline())) {
      assertThat(sw.apply(GroupMod.add(g))).isEmpty();
    }
    for (FlowEntry f : of.flows(c.pipeline())) {
      assertThat(sw.apply(FlowMod.add(f))).as("%s", f).isEmpty();
    }
    check(sw, c, rules.subList(0, 300), events);

    // withdraw 60, add 100: the changes bring the switch to the new tables
    List<Rule> now = new ArrayList<>(rules.subList(60, 400));
    c = RuleCompiler.compile(LAYOUT.carried(), now, CompileOptions.EXACT, c);
    OpenFlowPipeline.Changes ch = of.changes(c.diff(), c.pipeline());
    assertThat(ch.size()).isPositive();
    ch.groupsAdded().forEach(m -> assertThat(sw.apply(m)).isEmpty());
    ch.flowsAdded().forEach(m -> assertThat(sw.apply(m)).isEmpty());
    ch.flowsDeleted().forEach(m -> assertThat(sw.apply(m)).isEmpty());
    ch.groupsDeleted().forEach(m -> assertThat(sw.apply(m)).isEmpty());
    check(sw, c, now, events);
    assertThat(new TreeSet<>(sw.flows().stream().map(Object::toString).toList()))
        .isEqualTo(new TreeSet<>(of.flows(c.pipeline()).stream().map(Object::toString).toList()));
  }

  /**
   * Hitless: OVS applies a batch's messages one by one and forwards between them, so after every
   * prefix of the batch each event must still leave by every port it leaves by both before and
   * after the update (an unchanged subscriber's). Adding the root's entries before the states they
   * lead to would send events into states with no entries yet, dropping them (test_camus_ovs's
   * camus-tr-16 missed an event of an unchanged subscriber after churn).
   */
  @Test
  void everyPrefixOfAnUpdateKeepsWhatBothEndsDeliver() {
    List<Rule> rules = rules(50, 3);
    List<Event> events = events(60, 4);
    Compilation c =
        RuleCompiler.compile(LAYOUT.carried(), rules.subList(0, 35), CompileOptions.EXACT);
    OpenFlowPipeline of =
        new OpenFlowPipeline(LAYOUT, OpenFlowPipeline.Config.ports(1, 0x4e5053_00000003L, 7073));
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4, 5, 6, 7, 8, 9).build();
    of.groups(c.pipeline()).forEach(g -> assertThat(sw.apply(GroupMod.add(g))).isEmpty());
    of.flows(c.pipeline()).forEach(f -> assertThat(sw.apply(FlowMod.add(f))).isEmpty());
    int checked = 0;
    // churn in steps, as subscribers come and go: withdraw 3, add 5, each step one update
    for (int step = 0; step < 3; step++) {
      List<Rule> now = new ArrayList<>(rules.subList(3 * (step + 1), 35 + 5 * (step + 1)));
      SoftwarePipeline before = SoftwarePipeline.of(c.pipeline());
      List<TreeSet<Long>> was = new ArrayList<>();
      events.forEach(e -> was.add(ports(before, e)));
      c = RuleCompiler.compile(LAYOUT.carried(), now, CompileOptions.EXACT, c);
      SoftwarePipeline after = SoftwarePipeline.of(c.pipeline());
      List<TreeSet<Long>> kept = new ArrayList<>();
      for (int i = 0; i < events.size(); i++) {
        TreeSet<Long> k = new TreeSet<>(was.get(i));
        k.retainAll(ports(after, events.get(i)));
        kept.add(k);
      }
      OpenFlowPipeline.Changes ch = of.changes(c.diff(), c.pipeline());
      List<Runnable> batch = new ArrayList<>();
      ch.groupsAdded().forEach(m -> batch.add(() -> assertThat(sw.apply(m)).isEmpty()));
      ch.flowsAdded().forEach(m -> batch.add(() -> assertThat(sw.apply(m)).isEmpty()));
      ch.flowsDeleted().forEach(m -> batch.add(() -> assertThat(sw.apply(m)).isEmpty()));
      ch.groupsDeleted().forEach(m -> batch.add(() -> assertThat(sw.apply(m)).isEmpty()));
      for (int m = 0; m < batch.size(); m++) {
        batch.get(m).run();
        for (int i = 0; i < events.size(); i++) {
          if (kept.get(i).isEmpty()) {
            continue; // neither end delivers it anywhere both agree on: nothing to keep
          }
          PacketHeaders h = packet(events.get(i));
          assertThat(new TreeSet<>(sw.forward(IN_PORT, h).ports()))
              .as("step %d, after message %d of %d: %s", step, m + 1, batch.size(), events.get(i))
              .containsAll(kept.get(i));
          checked++;
        }
      }
      check(sw, c, now, events);
    }
    assertThat(checked).as("events kept by some port, checked mid-update").isGreaterThan(5_000);
  }

  private static TreeSet<Long> ports(SoftwarePipeline p, Event e) {
    TreeSet<Long> out = new TreeSet<>();
    for (int a : p.actions(LAYOUT.carried().values(e))) {
      out.add((long) a);
    }
    return out;
  }

  @Test
  void theLogicalUpPortTakesOnePhysicalUpPortAndNeverServesWhatCameFromUp() {
    List<Rule> rules =
        org.netpubsub.compiler.rules.RuleParser.parse(
            LAYOUT.carried().schema(),
            "true : fwd(0)\nprice > 100 : fwd(2)\nprice > 500 : fwd(0, 3)");
    Compilation c = RuleCompiler.compile(LAYOUT.carried(), rules, CompileOptions.EXACT);
    OpenFlowPipeline of =
        new OpenFlowPipeline(
            LAYOUT,
            OpenFlowPipeline.Config.ports(1, 0x4e5053_00000003L, 7073).withUp(0, List.of(7L, 8L)));
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4, 5, 6, 7, 8, 9).build();
    of.groups(c.pipeline())
        .forEach(g -> assertThat(sw.apply(GroupMod.add(g))).as("%s", g).isEmpty());
    of.flows(c.pipeline()).forEach(f -> assertThat(sw.apply(FlowMod.add(f))).as("%s", f).isEmpty());
    PacketHeaders cheap = packet(quote("IBM", 50, 100, "B"));
    PacketHeaders dear = packet(quote("IBM", 1000, 100, "B"));
    // from a down port: up by exactly one of 7 and 8, whichever the select group picks
    assertThat(sw.possibleForwardings(1, cheap)).hasSize(2);
    for (var f : sw.possibleForwardings(1, cheap)) {
      assertThat(f.ports()).hasSize(1).containsAnyOf(7L, 8L);
    }
    for (var f : sw.possibleForwardings(1, dear)) {
      assertThat(f.ports()).contains(2L, 3L).hasSize(3);
    }
    // from up port 7: down only, never up again
    assertThat(sw.possibleForwardings(7, cheap)).allMatch(f -> f.ports().isEmpty());
    assertThat(sw.possibleForwardings(7, dear)).allMatch(f -> f.ports().equals(List.of(2L, 3L)));
  }

  private static PacketHeaders packet(Event e) {
    return PacketHeaders.udp6(Ipv6Address.parse("fd00::1"), LAYOUT.address(e), 40000, 7073);
  }

  private static void check(
      SimulatedSwitch sw, Compilation c, List<Rule> rules, List<Event> events) {
    SoftwarePipeline soft = SoftwarePipeline.of(c.pipeline());
    int forwarded = 0;
    for (Event e : events) {
      PacketHeaders h =
          PacketHeaders.udp6(Ipv6Address.parse("fd00::1"), LAYOUT.address(e), 40000, 7073);
      var fw = sw.forward(IN_PORT, h);
      List<Long> ports = fw.ports();
      TreeSet<Long> want = new TreeSet<>();
      for (int p : soft.actions(LAYOUT.carried().values(e))) {
        want.add((long) p);
      }
      assertThat(new TreeSet<>(ports)).as("%s", e).isEqualTo(want);
      for (Rule r : rules) {
        if (FilterEvaluator.matches(r.dnf(), e)) {
          assertThat(want).as("no false negative: %s for %s", r, e).contains((long) r.ports()[0]);
        }
      }
      forwarded += ports.isEmpty() ? 0 : 1;
    }
    assertThat(forwarded).as("the events must reach someone").isGreaterThan(10);
  }

  static List<Rule> rules(int n, long seed) {
    Workload w =
        new ItchModel(ItchModel.Variant.RICH, 20, 1.0)
            .generate(new WorkloadSpec(seed, n, 0, PORTS, HostAssignment.RANDOM, Arrival.NONE));
    List<Rule> out = new ArrayList<>();
    int i = 0;
    for (var s : w.subscriptions()) {
      int port = 1 + Math.floorMod(s.ports().get(0), PORTS);
      out.add(
          new Rule(
              "r" + i++,
              s.filter(),
              Normalizer.toDnf(FilterParser.parse(ITCH.schema(), s.filter())),
              new int[] {port}));
    }
    return out;
  }

  static List<Event> events(int n, long seed) {
    return new ItchModel(ItchModel.Variant.RICH, 20, 1.0)
        .generate(new WorkloadSpec(seed, 0, n, PORTS, HostAssignment.RANDOM, Arrival.NONE))
        .events()
        .toList();
  }

  static Event quote(String stock, long price, long shares, String side) {
    return Event.builder(ITCH.schema())
        .set("stock", stock)
        .set("price", price)
        .set("shares", shares)
        .set("side", side)
        .build();
  }
}
