package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Forwarding;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.Pipeline;
import org.netpubsub.network.openflow.SimulatedSwitch;

/**
 * The checker's model of a switch (its index and the one pipeline interpreter under {@code
 * PipelinePolicy.INVARIANT_CHECKER}) against the simulated switch (the same interpreter under the
 * switch's policy, itself differentially tested against OVS), on random pipelines: three tables
 * with goto and metadata, masks, in_port, every group type with chains (sometimes 64 deep),
 * set-fields, outputs to ports, IN_PORT, ALL, FLOOD, a missing port, CONTROLLER and LOCAL. They
 * must agree wherever the policies agree and differ exactly where they do: the checker sends no
 * copy to CONTROLLER or LOCAL, and a select group gives every bucket the switch may choose (the
 * union of the switch's possible forwardings), so without choices the copies are equal as a
 * multiset. Each table's priorities are distinct: ties are the switch's choice, not a policy.
 */
class CheckerSwitchAgreementProperties {
  private static final Set<Long> PORTS = new TreeSet<>(List.of(1L, 2L, 3L, 4L));
  private static final int TABLES = 3;

  @Property(tries = 300)
  void checkerAgreesWithTheSwitchExceptWhereThePolicyDiffers(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4).build();
    List<Long> groupIds = randomGroups(r, sw);
    for (int table = 0; table < TABLES; table++) {
      List<Integer> priorities = new ArrayList<>(List.of(0, 5, 10, 20, 30, 100, 1000));
      for (int n = r.nextInt(5); n > 0 && !priorities.isEmpty(); n--) {
        int priority = priorities.remove(r.nextInt(priorities.size()));
        // an entry the switch refuses (a group named twice, say) is simply not there
        sw.apply(FlowMod.add(randomEntry(r, table, priority, groupIds)));
      }
    }
    SwitchTables index = new SwitchTables();
    sw.flows().forEach(index::add); // table, priority, age order: the switch's own ages
    sw.groups().forEach(index::putGroup);
    boolean choices =
        sw.groups().stream().anyMatch(g -> g.type() == GroupType.SELECT && g.buckets().size() > 1);

    for (int i = 0; i < 8; i++) {
      long inPort = 1 + r.nextInt(4);
      PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, destination(r), 7073, 7073);
      Pipeline.Outcome checker = FlowInvariants.treat(index, PORTS, inPort, h);
      Set<Forwarding> possible = sw.possibleForwardings(inPort, h);

      boolean failed = possible.stream().anyMatch(Forwarding::translationFailed);
      assertThat(checker.translationFailed()).as("translation failed").isEqualTo(failed);
      boolean missed =
          sw.flows().stream().noneMatch(f -> f.tableId() == 0 && f.match().matches(h, inPort, 0));
      assertThat(checker.missedTable0()).as("table 0 missed").isEqualTo(missed);
      assertThat(checker.egresses()).allMatch(e -> !reserved(e.port()));

      Set<Egress> union = new HashSet<>();
      boolean reachesReserved = false;
      for (Forwarding f : possible) {
        for (Egress e : f.egresses()) {
          if (reserved(e.port())) {
            reachesReserved = true;
          } else {
            union.add(e);
          }
        }
      }
      if (failed) {
        assertThat(checker.egresses()).isEmpty();
      } else {
        assertThat(new HashSet<>(checker.egresses())).as("copies").isEqualTo(union);
      }
      if (!choices && !failed) {
        assertThat(possible).hasSize(1);
        List<Egress> expected =
            sw.forward(inPort, h).egresses().stream().filter(e -> !reserved(e.port())).toList();
        assertThat(Forwarding.of(checker.egresses()).egresses()).isEqualTo(expected);
      }
      Statistics.label("outcome")
          .collect(
              failed
                  ? "failed"
                  : checker.egresses().isEmpty() ? "no copy" : choices ? "union" : "multiset");
      Statistics.label("reserved ports dropped").collect(reachesReserved);
    }
  }

  private static boolean reserved(long port) {
    return port == OfPort.CONTROLLER || port == OfPort.LOCAL;
  }

  /** Destinations from a small space, so that the masks below meet them. */
  private static Ipv6Address destination(SplittableRandom r) {
    return new Ipv6Address(0xff0e_0000_0000_0000L | ((long) r.nextInt(8) << 40), r.nextInt(3));
  }

  /** Groups 1-5 chaining only to higher ids; sometimes a chain of 63-65 indirect groups. */
  private static List<Long> randomGroups(SplittableRandom r, SimulatedSwitch sw) {
    List<Long> ids = new ArrayList<>();
    if (r.nextInt(6) == 0) {
      int length = 63 + r.nextInt(3);
      for (int i = length - 1; i >= 0; i--) {
        Action last = i == length - 1 ? Action.output(2) : Action.group(101 + i);
        sw.apply(GroupMod.add(new GroupEntry(100 + i, GroupType.INDIRECT, List.of(bucket(last)))));
      }
      ids.add(100L);
    }
    for (long id = 5; id >= 1; id--) {
      if (r.nextInt(3) == 0) {
        continue;
      }
      GroupType type = GroupType.values()[r.nextInt(GroupType.values().length)];
      int n = type == GroupType.INDIRECT ? 1 : 1 + r.nextInt(3);
      List<Bucket> buckets = new ArrayList<>();
      for (int b = 0; b < n; b++) {
        List<Action> actions = new ArrayList<>();
        if (r.nextBoolean()) {
          actions.add(new Action.SetIpv6Dst(destination(r)));
        }
        List<Long> higher = ids.stream().filter(x -> x > 0 && x < 100).toList();
        actions.add(
            !higher.isEmpty() && r.nextInt(4) == 0
                ? Action.group(higher.get(r.nextInt(higher.size())))
                : Action.output(port(r)));
        buckets.add(
            switch (type) {
              case SELECT -> new Bucket(1 + r.nextInt(3), OfPort.ANY, FlowMod.ANY_GROUP, actions);
              case FF -> new Bucket(0, 1 + r.nextInt(5), FlowMod.ANY_GROUP, actions);
              default -> bucket(actions.toArray(Action[]::new));
            });
      }
      if (sw.apply(GroupMod.add(new GroupEntry(id, type, buckets))).isEmpty()) {
        ids.add(id);
      }
    }
    return ids;
  }

  private static Bucket bucket(Action... actions) {
    return new Bucket(0, OfPort.ANY, FlowMod.ANY_GROUP, List.of(actions));
  }

  /** A physical port (5 is missing), IN_PORT, ALL, FLOOD, CONTROLLER or LOCAL. */
  private static long port(SplittableRandom r) {
    long[] special = {OfPort.IN_PORT, OfPort.ALL, OfPort.FLOOD, OfPort.CONTROLLER, OfPort.LOCAL};
    return r.nextInt(3) > 0 ? 1 + r.nextInt(5) : special[r.nextInt(special.length)];
  }

  private static FlowEntry randomEntry(
      SplittableRandom r, int table, int priority, List<Long> groups) {
    Match.Builder m = Match.builder();
    if (r.nextInt(4) == 0) {
      m.inPort(1 + r.nextInt(4));
    }
    boolean ipv6 = r.nextInt(5) > 0;
    if (ipv6) {
      m.ipv6();
      if (r.nextInt(4) > 0) {
        m.ipv6Dst(MaskedIpv6.prefix(destination(r), 16 + r.nextInt(10)));
      }
    }
    if (table > 0 && r.nextBoolean()) {
      m.metadata(r.nextInt(4), 3);
    }
    List<Instruction> is = new ArrayList<>();
    if (r.nextInt(10) < 7) {
      is.add(new Instruction.ApplyActions(actions(r, ipv6, groups)));
    }
    if (r.nextInt(10) == 0) {
      is.add(Instruction.clearActions());
    }
    if (r.nextInt(10) < 4) {
      is.add(new Instruction.WriteActions(actions(r, ipv6, groups)));
    }
    if (table < TABLES - 1 && r.nextBoolean()) {
      is.add(Instruction.writeMetadata(r.nextInt(4), 3));
    }
    if (table < TABLES - 1 && r.nextBoolean()) {
      is.add(Instruction.gotoTable(table + 1 + r.nextInt(TABLES - 1 - table)));
    }
    return FlowEntry.builder()
        .table(table)
        .priority(priority)
        .match(m.build())
        .instructions(is)
        .build();
  }

  private static List<Action> actions(SplittableRandom r, boolean ipv6, List<Long> groups) {
    List<Action> out = new ArrayList<>();
    for (int n = 1 + r.nextInt(3); n > 0; n--) {
      int x = r.nextInt(10);
      if (x < 5) {
        out.add(Action.output(port(r)));
      } else if (x < 7 && !groups.isEmpty()) {
        out.add(Action.group(groups.get(r.nextInt(groups.size()))));
      } else if (ipv6) {
        out.add(new Action.SetIpv6Dst(destination(r)));
      }
    }
    return out;
  }
}
