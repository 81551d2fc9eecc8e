package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The checker against its naive twin ({@link NaiveFlowWalk}: every address of a small header space
 * sent from every port through the simulated network) on random topologies and random tables —
 * priorities, arbitrary ipv6_dst masks, in_port, UDP ports (the event port and a layout switch's
 * other one, each walked once an entry matches it), three tables with goto and metadata, all,
 * select, fast-failover and indirect groups, destination rewrites — batch after batch, each batch
 * replacing one or two switches' state: the checker refuses exactly when the twin finds a loop or
 * black hole through a changed switch, and the class it names does break.
 */
class FlowInvariantsProperties {
  private static final int PORT = 7073;
  private static final int OTHER_PORT = 7074;
  private static final Ipv6Address CONTENT = Ipv6Address.parse("ff0e::");
  private static final Ipv6Address UNICAST = Ipv6Address.parse("fd00::");

  /** Every address that behaves differently: the fields below only vary the low 4 bits. */
  private static final List<Ipv6Address> UNIVERSE = universe();

  private static List<Ipv6Address> universe() {
    List<Ipv6Address> out = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      out.add(new Ipv6Address(CONTENT.high(), i));
      out.add(new Ipv6Address(UNICAST.high(), i));
    }
    out.add(Ipv6Address.parse("ff05::1"));
    out.add(Ipv6Address.parse("2001:db8::1"));
    return out;
  }

  @Property(tries = 30)
  void agreesWithBruteForceWalk(
      @ForAll long seed, @ForAll @IntRange(min = 2, max = 4) int switches) {
    Random r = new Random(seed);
    Topology t = TestTopologies.random(seed, switches, r.nextInt(3), r.nextBoolean(), 0.5);
    List<Long> dpids = new ArrayList<>(t.switches());
    FlowInvariants checker = new FlowInvariants(t, PORT);
    Map<Long, List<FlowEntry>> flows = new HashMap<>();
    Map<Long, List<GroupEntry>> groups = new HashMap<>();
    for (int batch = 0; batch < 6; batch++) {
      // a whole new state, or a delta: some entries out, some in, maybe new groups
      boolean whole = r.nextInt(3) == 0;
      Map<Long, FlowInvariants.Change> changes = new TreeMap<>();
      Map<Long, List<FlowEntry>> nextFlows = new HashMap<>(flows);
      Map<Long, List<GroupEntry>> nextGroups = new HashMap<>(groups);
      for (int k = 1 + r.nextInt(2); k > 0; k--) {
        long dpid = dpids.get(r.nextInt(dpids.size()));
        List<Long> ports = new ArrayList<>(t.ports(dpid));
        List<FlowEntry> now = nextFlows.getOrDefault(dpid, List.of());
        List<GroupEntry> gsNow = nextGroups.getOrDefault(dpid, List.of());
        List<GroupEntry> gs = whole || r.nextInt(3) == 0 ? groups(r, ports) : gsNow;
        List<FlowEntry> fs;
        if (whole) {
          fs = flows(r, ports, gs);
        } else {
          fs = new ArrayList<>(now);
          fs.removeIf(f -> r.nextInt(3) == 0 || !groupsExist(f, gs));
          // only priorities the table does not use: ties are undefined in OpenFlow
          for (FlowEntry f : flows(r, ports, gs)) {
            if (fs.stream()
                .noneMatch(x -> x.tableId() == f.tableId() && x.priority() == f.priority())) {
              fs.add(f);
            }
          }
        }
        FlowInvariants.Change c = checker.changeTo(dpid, fs, gs);
        changes.merge(dpid, c, (x, y) -> y);
        nextFlows.put(dpid, fs);
        nextGroups.put(dpid, gs);
      }
      NaiveFlowWalk twin = new NaiveFlowWalk(t, nextFlows, nextGroups);
      // datagrams to the event port, and to the other port once an entry matches it
      List<Integer> udpPorts =
          nextFlows.values().stream().flatMap(List::stream).anyMatch(f -> isOther(f))
              ? List.of(PORT, OTHER_PORT)
              : List.of(PORT);
      boolean broken =
          udpPorts.stream().anyMatch(p -> twin.violated(UNIVERSE, changes.keySet(), p));
      var index = checker.snapshot();
      var fields = checker.fields();
      Optional<Violation> checked = checker.check(changes);
      assertThat(checker.snapshot()).as("a check takes nothing").isEqualTo(index);
      Optional<Violation> v = checker.offer(changes);
      Statistics.collect(whole ? "whole" : "delta", v.map(x -> x.kind().name()).orElse("ACCEPT"));
      assertThat(v.isPresent()).as("checker %s, twin %s", v, broken).isEqualTo(broken);
      assertThat(checked).isEqualTo(v);
      if (v.isPresent()) {
        assertThat(
                udpPorts.stream()
                    .anyMatch(p -> twin.violated(v.get().packetClass(), changes.keySet(), p)))
            .isTrue();
        assertThat(v.get().path()).isNotEmpty();
        assertThat(checker.snapshot()).as("a refused batch is not taken").isEqualTo(index);
        assertThat(checker.fields()).isEqualTo(fields);
      } else {
        flows = nextFlows;
        groups = nextGroups;
        // the index kept by deltas holds what an index of the whole states holds
        FlowInvariants fresh = new FlowInvariants(t, PORT);
        for (long d : dpids) {
          fresh.put(d, flows.getOrDefault(d, List.of()), groups.getOrDefault(d, List.of()));
        }
        assertThat(entries(checker)).isEqualTo(entries(fresh));
        assertThat(checker.fields()).isEqualTo(fresh.fields());
      }
    }
  }

  private static boolean isOther(FlowEntry f) {
    return Integer.valueOf(OTHER_PORT).equals(f.match().udpDst());
  }

  /** Whether every group the flow names is among these (switches refuse a flow otherwise). */
  private static boolean groupsExist(FlowEntry f, List<GroupEntry> gs) {
    return f.instructions().stream()
        .flatMap(
            i -> i instanceof Instruction.ApplyActions a ? a.actions().stream() : Stream.empty())
        .allMatch(
            a ->
                !(a instanceof Action.Group g)
                    || gs.stream().anyMatch(x -> x.groupId() == g.groupId()));
  }

  /** Each switch's entries in lookup order, without their ages, and its groups. */
  private static Map<Long, ?> entries(FlowInvariants c) {
    Map<Long, List<?>> out = new TreeMap<>();
    c.snapshot()
        .forEach(
            (d, s) ->
                out.put(d, List.of(s.flows().stream().map(x -> x.entry()).toList(), s.groups())));
    return out;
  }

  private static MaskedIpv6 field(Random r) {
    return switch (r.nextInt(6)) {
      case 0 -> null;
      case 1 -> MaskedIpv6.parse("ff00::/8");
      default -> {
        Ipv6Address base = r.nextBoolean() ? CONTENT : UNICAST;
        long mask = r.nextInt(3) == 0 ? r.nextInt(16) : (0xf << (r.nextInt(4) + 1)) & 0xf;
        mask |= r.nextBoolean() ? 0 : 0xf; // exact often: host routes
        yield new MaskedIpv6(
            new Ipv6Address(base.high(), r.nextInt(16)), new Ipv6Address(-1L, ~0xfL | mask));
      }
    };
  }

  private static List<GroupEntry> groups(Random r, List<Long> ports) {
    List<GroupEntry> out = new ArrayList<>();
    int n = ports.isEmpty() ? 0 : r.nextInt(3);
    for (int id = 1; id <= n; id++) {
      GroupType type = GroupType.values()[r.nextInt(GroupType.values().length)];
      List<Bucket> buckets = new ArrayList<>();
      for (int b = (type == GroupType.INDIRECT ? 1 : 1 + r.nextInt(2)); b > 0; b--) {
        List<Action> actions = new ArrayList<>();
        actions.add(new Action.Output(ports.get(r.nextInt(ports.size()))));
        if (id > 1 && r.nextInt(3) == 0) {
          actions.add(new Action.Group(id - 1));
        }
        buckets.add(
            switch (type) {
              case SELECT -> new Bucket(r.nextInt(3), OfPort.ANY, 0xffffffffL, actions);
              case FF -> new Bucket(0, r.nextBoolean() ? ports.get(0) : 99, 0xffffffffL, actions);
              default -> new Bucket(0, OfPort.ANY, 0xffffffffL, actions);
            });
      }
      out.add(new GroupEntry(id, type, buckets));
    }
    return out;
  }

  private static List<FlowEntry> flows(Random r, List<Long> ports, List<GroupEntry> groups) {
    List<FlowEntry> out = new ArrayList<>();
    if (r.nextBoolean()) { // a deliberate drop of everything else: no black holes, loops show
      out.add(FlowEntry.builder().priority(0).match(Match.builder().ipv6().build()).build());
    }
    for (int table = 0; table < 3; table++) {
      List<Integer> priorities = new ArrayList<>(List.of(1, 2, 3, 4, 5, 6, 7, 8));
      Collections.shuffle(priorities, r);
      for (int i = r.nextInt(table == 0 ? 5 : 3); i > 0; i--) {
        // some match a UDP port: the event port, or the other one a layout switch uses
        Match.Builder m =
            (r.nextInt(3) == 0
                    ? Match.builder().udp6().udpDst(r.nextBoolean() ? PORT : OTHER_PORT)
                    : Match.builder().ipv6())
                .ipv6Dst(field(r));
        if (!ports.isEmpty() && r.nextInt(4) == 0) {
          m.inPort(ports.get(r.nextInt(ports.size())));
        }
        if (table > 0 && r.nextInt(3) == 0) {
          m.metadata(r.nextInt(2), 1);
        }
        List<Action> actions = new ArrayList<>();
        if (r.nextInt(8) == 0) {
          actions.add(new Action.SetIpv6Dst(UNIVERSE.get(r.nextInt(UNIVERSE.size()))));
        }
        for (int a = r.nextInt(3); a > 0 && !ports.isEmpty(); a--) {
          int kind = r.nextInt(10);
          actions.add(
              kind == 0
                  ? new Action.Output(OfPort.IN_PORT)
                  : kind == 1
                      ? new Action.Output(OfPort.CONTROLLER)
                      : kind <= 3 && !groups.isEmpty()
                          ? new Action.Group(groups.get(r.nextInt(groups.size())).groupId())
                          : new Action.Output(ports.get(r.nextInt(ports.size()))));
        }
        List<Instruction> is = new ArrayList<>();
        // a flow naming one group twice is refused by switches (OVS aborts on it)
        is.add(Instruction.apply(actions.stream().distinct().toArray(Action[]::new)));
        if (table < 2 && r.nextInt(3) == 0) {
          is.add(Instruction.writeMetadata(r.nextInt(2), 1));
          is.add(Instruction.gotoTable(table + 1 + r.nextInt(2 - table)));
        }
        out.add(
            FlowEntry.builder()
                .table(table)
                .priority(priorities.get(i))
                .match(m.build())
                .instructions(is)
                .build());
      }
    }
    return out;
  }
}
