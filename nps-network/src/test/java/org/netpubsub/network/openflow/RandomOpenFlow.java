package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Seeded random flow-mods, group-mods and packets for differential tests, drawn from a small space
 * so that they interact: tables 0-2, IPv6 destinations under ff0e::/16 with CIDR and non-CIDR
 * masks, a few priorities (ties happen), metadata pipelines, groups chaining only to higher ids (no
 * loops), and now and then a message a switch must refuse. It reads the simulated switch's state to
 * aim modifies and deletes at existing entries.
 */
final class RandomOpenFlow {
  static final int TABLES = 3;
  static final int GROUP_IDS = 6;
  private static final int[] PRIORITIES = {0, 10, 20, 30, 100, 1000};
  private static final long[] COOKIES = {0, 1, 2, 0x10, 0x11};

  private final SplittableRandom r;
  private final int ports;
  private List<Long> groups = List.of();

  RandomOpenFlow(long seed, int ports) {
    this.r = new SplittableRandom(seed);
    this.ports = ports;
  }

  private boolean chance(double p) {
    return r.nextDouble() < p;
  }

  private <T> T pick(List<T> list) {
    return list.get(r.nextInt(list.size()));
  }

  /** A FlowMod or a GroupMod. */
  Object nextMod(SimulatedSwitch sw) {
    groups = sw.groups().stream().map(GroupEntry::groupId).toList();
    double x = r.nextDouble();
    List<FlowEntry> flows = sw.flows();
    if (groups.size() < 2 && chance(0.3)) {
      return GroupMod.add(randomGroup(unusedGroupId()));
    } else if (x < 0.60 || flows.isEmpty() && x < 0.80) {
      return FlowMod.add(randomEntry());
    } else if (x < 0.80) {
      return aimedFlowMod(pick(flows));
    } else if (x < 0.88) {
      // Mostly a new id; now and then an existing one (OFPGMFC_GROUP_EXISTS).
      return GroupMod.add(randomGroup(chance(0.9) ? unusedGroupId() : groupId()));
    } else if (x < 0.96) {
      // Mostly an existing id; now and then another (OFPGMFC_UNKNOWN_GROUP).
      return GroupMod.modify(randomGroup(groupId()));
    }
    return GroupMod.delete(chance(0.1) ? GroupEntry.ALL : groupId());
  }

  /** Mostly an existing group's id (when there is one), else any id in range. */
  private long groupId() {
    return !groups.isEmpty() && chance(0.9) ? pick(groups) : 1 + r.nextInt(GROUP_IDS);
  }

  private long unusedGroupId() {
    for (int attempt = 0; attempt < 20; attempt++) {
      long id = 1 + r.nextInt(GROUP_IDS);
      if (!groups.contains(id)) {
        return id;
      }
    }
    return 1 + r.nextInt(GROUP_IDS);
  }

  private FlowEntry randomEntry() {
    int table = r.nextInt(10) < 5 ? 0 : r.nextInt(10) < 6 ? 1 : 2;
    Match match = randomMatch(table);
    FlowEntry.Builder b =
        FlowEntry.builder()
            .table(table)
            .priority(PRIORITIES[r.nextInt(PRIORITIES.length)])
            .match(match)
            .instructions(randomInstructions(table, match))
            .cookie(COOKIES[r.nextInt(COOKIES.length)]);
    if (chance(0.2)) {
      b.flag(FlowFlag.SEND_FLOW_REM);
    }
    if (chance(0.2)) {
      b.flag(FlowFlag.CHECK_OVERLAP);
    }
    if (chance(0.05)) {
      b.flag(FlowFlag.RESET_COUNTS);
    }
    if (chance(0.1)) {
      b.idleTimeout(3600 + r.nextInt(100)); // long: OVS must not expire it during the test
    }
    if (chance(0.1)) {
      b.hardTimeout(7200 + r.nextInt(100));
    }
    return b.build();
  }

  /** A valid match (prerequisites included): ovs-ofctl silently drops fields lacking them. */
  private Match randomMatch(int table) {
    Match.Builder m = Match.builder();
    if (chance(0.25)) {
      m.inPort(1 + r.nextInt(ports));
    }
    if (chance(0.85)) {
      m.ipv6();
      if (chance(0.75)) {
        m.ipv6Dst(randomDstMatch());
      }
      if (chance(0.25)) {
        m.ipv6Src(MaskedIpv6.of(source(), Ipv6Address.parse(chance(0.5) ? "::3" : "::ffff")));
      }
      if (chance(0.4)) {
        m.ipProto(17);
        if (chance(0.5)) {
          m.udpDst(1 + r.nextInt(4));
        }
        if (chance(0.2)) {
          m.udpSrc(1 + r.nextInt(4));
        }
      }
    }
    if (table > 0 && chance(0.5)) {
      m.metadata(r.nextInt(16), randomNibbleMask());
    }
    return m.build();
  }

  private long randomNibbleMask() {
    return 1 + r.nextInt(15);
  }

  /** ff0e:XXXX:YYYY::/mask where the mask is CIDR /16../21 or 1-3 scattered bits in 16..47. */
  private MaskedIpv6 randomDstMatch() {
    Ipv6Address value = destination();
    if (chance(0.5)) {
      return MaskedIpv6.prefix(value, 16 + r.nextInt(6));
    }
    long bits = 0;
    for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
      bits |= 1L << (16 + r.nextInt(32));
    }
    return MaskedIpv6.of(value, new Ipv6Address(0xffffL << 48 | bits, 0));
  }

  /** A destination whose bits 16..47 are random (few patterns), under ff0e::/16. */
  Ipv6Address destination() {
    long mid = r.nextLong() & 0xffffffffL;
    return new Ipv6Address(0xff0eL << 48 | mid << 16, r.nextInt(3));
  }

  private Ipv6Address source() {
    return Ipv6Address.parse("2001:db8::" + (1 + r.nextInt(4)));
  }

  private List<Instruction> randomInstructions(int table, Match match) {
    List<Instruction> out = new ArrayList<>();
    if (chance(0.7)) {
      out.add(new Instruction.ApplyActions(randomActions(match, 1 + r.nextInt(3))));
    }
    if (chance(0.1)) {
      out.add(Instruction.clearActions());
    }
    if (chance(0.35)) {
      out.add(new Instruction.WriteActions(randomActions(match, 1 + r.nextInt(3))));
    }
    if (table < TABLES - 1 && chance(0.3)) {
      out.add(Instruction.writeMetadata(r.nextInt(16), randomNibbleMask()));
    }
    if (ModValidator.namesAGroupTwice(out)) {
      // Never sent: OVS 3.1.0 crashes when such a group is deleted (see ModValidator).
      out.removeIf(i -> i instanceof Instruction.WriteActions);
      out.replaceAll(i -> i instanceof Instruction.ApplyActions a ? withoutRepeatedGroups(a) : i);
    }
    if (chance(0.03)) {
      out.add(Instruction.gotoTable(r.nextInt(table + 1))); // backwards: refused
    } else if (table < TABLES - 1 && chance(0.5)) {
      out.add(Instruction.gotoTable(table + 1 + r.nextInt(TABLES - 1 - table)));
    }
    return out;
  }

  private static Instruction withoutRepeatedGroups(Instruction.ApplyActions a) {
    java.util.Set<Long> seen = new java.util.HashSet<>();
    return new Instruction.ApplyActions(
        a.actions().stream()
            .filter(x -> !(x instanceof Action.Group g) || seen.add(g.groupId()))
            .toList());
  }

  private List<Action> randomActions(Match match, int n) {
    List<Action> out = new ArrayList<>();
    boolean ipv6 = match.isEthType(PacketHeaders.ETH_TYPE_IPV6);
    boolean udp = ipv6 && match.ipProto() != null && match.ipProto() == 17;
    for (int i = 0; i < n; i++) {
      double x = r.nextDouble();
      if (x < 0.40) {
        out.add(Action.output(1 + r.nextInt(ports)));
      } else if (x < 0.45) {
        out.add(Action.output(OfPort.IN_PORT));
      } else if (x < 0.50) {
        out.add(Action.output(chance(0.5) ? OfPort.ALL : OfPort.FLOOD));
      } else if (x < 0.55) {
        out.add(Action.output(OfPort.CONTROLLER));
      } else if (x < 0.58) {
        out.add(Action.output(OfPort.LOCAL));
      } else if (x < 0.75) {
        out.add(Action.group(groupId())); // sometimes missing: OFPBAC_BAD_OUT_GROUP
      } else if (x < 0.90) {
        // Mostly consistent with the match; sometimes not (OFPBAC_MATCH_INCONSISTENT).
        if (ipv6 || chance(0.1)) {
          out.add(new Action.SetIpv6Dst(destination()));
        }
      } else if (x < 0.95) {
        if (ipv6 || chance(0.1)) {
          out.add(new Action.SetIpv6Src(source()));
        }
      } else if (udp || chance(0.1)) {
        int port = 1 + r.nextInt(4);
        out.add(chance(0.7) ? new Action.SetUdpDst(port) : new Action.SetUdpSrc(port));
      }
    }
    return out;
  }

  /** A modify or delete aimed at an existing entry: strict on it, or non-strict on a cover. */
  private FlowMod aimedFlowMod(FlowEntry target) {
    double x = r.nextDouble();
    FlowModCommand command =
        x < 0.25
            ? FlowModCommand.MODIFY
            : x < 0.45
                ? FlowModCommand.MODIFY_STRICT
                : x < 0.75 ? FlowModCommand.DELETE : FlowModCommand.DELETE_STRICT;
    Match match = command.isStrict() ? target.match() : generalize(target.match());
    if (chance(0.15)) {
      match = randomMatch(target.tableId()); // may select nothing
    }
    FlowMod.Builder b =
        FlowMod.builder(command).table(target.tableId()).priority(target.priority()).match(match);
    if (command.isModify()) {
      b.instructions(randomInstructions(target.tableId(), match));
      if (chance(0.1)) {
        b.flag(FlowFlag.RESET_COUNTS);
      }
    } else {
      if (command == FlowModCommand.DELETE && chance(0.3)) {
        b.table(FlowMod.ALL_TABLES);
      }
      if (chance(0.2)) {
        b.outPort(chance(0.8) ? 1 + r.nextInt(ports) : OfPort.CONTROLLER);
      }
      if (chance(0.15)) {
        b.outGroup(groupId());
      }
    }
    if (chance(0.2)) {
      b.cookie(chance(0.7) ? target.cookie() : COOKIES[r.nextInt(COOKIES.length)], 0xf);
    }
    return b.build();
  }

  /** A match covering {@code m}: some fields dropped, prerequisites kept consistent. */
  private Match generalize(Match m) {
    Match.Builder b = m.toBuilder();
    for (String f : List.of("inPort", "ipv6Src", "ipv6Dst", "udpSrc", "udpDst", "metadata")) {
      if (chance(0.4)) {
        b.clear(f);
      }
    }
    Match g = b.build();
    if (g.udpSrc() == null && g.udpDst() == null && chance(0.5)) {
      g = g.toBuilder().clear("ipProto").build();
    }
    if (g.ipProto() == null && g.ipv6Src() == null && g.ipv6Dst() == null && chance(0.5)) {
      g = g.toBuilder().clear("ethType").build();
    }
    if (g.ipv6Dst() != null && !g.ipv6Dst().isExact() && chance(0.5)) {
      g = g.toBuilder().ipv6Dst(MaskedIpv6.prefix(g.ipv6Dst().value(), 16)).build();
    }
    return g;
  }

  /** A group whose buckets only chain to groups of higher ids, so groups never form a loop. */
  GroupEntry randomGroup(long id) {
    double x = r.nextDouble();
    GroupType type =
        x < 0.5
            ? GroupType.ALL
            : x < 0.75 ? GroupType.SELECT : x < 0.9 ? GroupType.INDIRECT : GroupType.FF;
    int n = type == GroupType.INDIRECT ? 1 : 1 + r.nextInt(3);
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Action> actions = new ArrayList<>();
      if (chance(0.5)) {
        actions.add(new Action.SetIpv6Dst(destination()));
      }
      if (chance(0.1)) {
        actions.add(new Action.SetUdpDst(1 + r.nextInt(4))); // a no-op on non-UDP packets
      }
      if (id < GROUP_IDS && chance(0.15)) {
        actions.add(Action.group(id + 1 + r.nextInt((int) (GROUP_IDS - id))));
      } else {
        double y = r.nextDouble();
        actions.add(
            Action.output(
                y < 0.85 ? 1 + r.nextInt(ports) : y < 0.92 ? OfPort.IN_PORT : OfPort.CONTROLLER));
      }
      buckets.add(
          switch (type) {
            case SELECT -> new Bucket(1 + r.nextInt(3), OfPort.ANY, FlowMod.ANY_GROUP, actions);
            case FF -> new Bucket(0, 1 + r.nextInt(ports), FlowMod.ANY_GROUP, actions);
            default -> new Bucket(0, OfPort.ANY, FlowMod.ANY_GROUP, actions);
          });
    }
    return new GroupEntry(id, type, buckets);
  }

  /** A packet; usually one that satisfies the match of an existing entry (then the in_port too). */
  Packet packet(SimulatedSwitch sw) {
    double x = r.nextDouble();
    long inPort = 1 + r.nextInt(ports);
    if (x < 0.05) {
      return new Packet(
          inPort,
          new PacketHeaders(PacketHeaders.ETH_TYPE_IPV4, null, null, 17, 1 + r.nextInt(4), 2));
    }
    PacketHeaders h =
        new PacketHeaders(
            PacketHeaders.ETH_TYPE_IPV6,
            source(),
            destination(),
            x < 0.1 ? 6 : 17,
            1 + r.nextInt(4),
            1 + r.nextInt(4));
    // Aim mostly at table 0, where every packet starts.
    int table = chance(0.8) ? 0 : r.nextInt(TABLES);
    List<FlowEntry> candidates =
        sw.flows().stream()
            .filter(f -> f.tableId() == table && f.match().isEthType(PacketHeaders.ETH_TYPE_IPV6))
            .toList();
    if (candidates.isEmpty() || chance(0.25)) {
      return new Packet(inPort, h);
    }
    Match m = pick(candidates).match();
    if (m.ipv6Dst() != null) {
      h = h.withIpv6Dst(m.ipv6Dst().value().or(h.ipv6Dst().and(m.ipv6Dst().mask().not())));
    }
    if (m.ipv6Src() != null) {
      h = h.withIpv6Src(m.ipv6Src().value().or(h.ipv6Src().and(m.ipv6Src().mask().not())));
    }
    if (m.ipProto() != null && m.ipProto() != h.ipProto()) {
      h = new PacketHeaders(h.ethType(), h.ipv6Src(), h.ipv6Dst(), m.ipProto(), 1, 1);
    }
    if (m.udpSrc() != null) {
      h = h.withUdpSrc(m.udpSrc());
    }
    if (m.udpDst() != null) {
      h = h.withUdpDst(m.udpDst());
    }
    return new Packet(m.inPort() != null ? m.inPort() : inPort, h);
  }

  /** A packet entering by a port. */
  record Packet(long inPort, PacketHeaders headers) {}

  /** A non-zero dp_hash for the trace. */
  long dpHash() {
    return 1 + r.nextInt(Integer.MAX_VALUE);
  }
}
