package org.netpubsub.controller.southbound;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowFlag;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupModCommand;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;

/**
 * Seeded random values of the pure OpenFlow model for translation and reconcile properties: every
 * field and command, any bit patterns for translation, and "installable" flows and groups (valid
 * for a switch with ports 1..4 and groups 1..{@link #GROUP_IDS}) for reconciliation.
 */
final class RandomModel {
  static final int GROUP_IDS = 5;
  private static final long[] RESERVED = {
    OfPort.IN_PORT, OfPort.ALL, OfPort.CONTROLLER, OfPort.LOCAL, OfPort.FLOOD
  };

  private final SplittableRandom r;

  RandomModel(long seed) {
    this.r = new SplittableRandom(seed);
  }

  boolean chance(double p) {
    return r.nextDouble() < p;
  }

  int nextInt(int bound) {
    return r.nextInt(bound);
  }

  private <T> T pick(List<T> values) {
    return values.get(r.nextInt(values.size()));
  }

  // ---- arbitrary values (translation round trips) ----

  FlowMod anyFlowMod() {
    FlowModCommand command = pick(List.of(FlowModCommand.values()));
    FlowMod.Builder b =
        FlowMod.builder(command)
            .table(r.nextInt(256))
            .priority(r.nextInt(0x10000))
            .match(anyMatch())
            .instructions(anyInstructions())
            .cookie(r.nextLong(), r.nextLong())
            .flags(anyFlags())
            .idleTimeout(r.nextInt(0x10000))
            .hardTimeout(r.nextInt(0x10000))
            .outPort(anyPort())
            .outGroup(chance(0.5) ? FlowMod.ANY_GROUP : r.nextLong(0x1_0000_0000L))
            .bufferId(chance(0.8) ? FlowMod.NO_BUFFER : r.nextLong(0x1_0000_0000L));
    return b.build();
  }

  FlowEntry anyFlowEntry() {
    return FlowEntry.builder()
        .table(r.nextInt(255))
        .priority(r.nextInt(0x10000))
        .match(anyMatch())
        .instructions(anyInstructions())
        .cookie(r.nextLong())
        .flags(anyFlags())
        .idleTimeout(r.nextInt(0x10000))
        .hardTimeout(r.nextInt(0x10000))
        .build();
  }

  GroupMod anyGroupMod() {
    GroupModCommand command = pick(List.of(GroupModCommand.values()));
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 0, n = r.nextInt(4); i < n; i++) {
      buckets.add(
          new Bucket(
              r.nextInt(0x10000),
              anyPort(),
              chance(0.5) ? FlowMod.ANY_GROUP : r.nextLong(0x1_0000_0000L),
              anyActions()));
    }
    return new GroupMod(
        command, r.nextLong(0x1_0000_0000L), pick(List.of(GroupType.values())), buckets);
  }

  Match anyMatch() {
    Match.Builder m = Match.builder();
    if (chance(0.4)) {
      m.inPort(anyPort());
    }
    if (chance(0.7)) {
      m.ethType(chance(0.8) ? 0x86dd : r.nextInt(0x10000));
    }
    if (chance(0.4)) {
      m.ipv6Src(anyMaskedIpv6());
    }
    if (chance(0.6)) {
      m.ipv6Dst(anyMaskedIpv6());
    }
    if (chance(0.4)) {
      m.ipProto(chance(0.7) ? 17 : r.nextInt(255)); // 255 is reserved: openflowj refuses it
    }
    if (chance(0.3)) {
      m.udpSrc(r.nextInt(0x10000));
    }
    if (chance(0.3)) {
      m.udpDst(r.nextInt(0x10000));
    }
    if (chance(0.2)) {
      m.icmpv6Type(r.nextInt(0x100));
    }
    if (chance(0.4)) {
      m.metadata(r.nextLong(), chance(0.3) ? -1L : r.nextLong());
    }
    return m.build();
  }

  /** Exact, CIDR or arbitrary (non-CIDR) masks. */
  MaskedIpv6 anyMaskedIpv6() {
    Ipv6Address value = new Ipv6Address(r.nextLong(), r.nextLong());
    double x = r.nextDouble();
    if (x < 0.3) {
      return MaskedIpv6.exact(value);
    } else if (x < 0.7) {
      return MaskedIpv6.prefix(value, 1 + r.nextInt(128));
    }
    return MaskedIpv6.of(value, new Ipv6Address(r.nextLong(), r.nextLong()));
  }

  List<Instruction> anyInstructions() {
    List<Instruction> out = new ArrayList<>();
    if (chance(0.6)) {
      out.add(new Instruction.ApplyActions(anyActions()));
    }
    if (chance(0.2)) {
      out.add(new Instruction.ClearActions());
    }
    if (chance(0.4)) {
      out.add(new Instruction.WriteActions(anyActions()));
    }
    if (chance(0.3)) {
      out.add(new Instruction.WriteMetadata(r.nextLong(), r.nextLong()));
    }
    if (chance(0.3)) {
      out.add(new Instruction.GotoTable(r.nextInt(256)));
    }
    return out;
  }

  List<Action> anyActions() {
    List<Action> out = new ArrayList<>();
    for (int i = 0, n = r.nextInt(4); i < n; i++) {
      out.add(
          switch (r.nextInt(7)) {
            case 0 -> new Action.Output(anyPort(), r.nextInt(0x10000));
            case 1 -> new Action.Group(r.nextLong(0x1_0000_0000L));
            case 2 -> new Action.SetIpv6Dst(new Ipv6Address(r.nextLong(), r.nextLong()));
            case 3 -> new Action.SetIpv6Src(new Ipv6Address(r.nextLong(), r.nextLong()));
            case 4 -> new Action.SetUdpDst(r.nextInt(0x10000));
            case 5 -> new Action.SetEthDst(r.nextLong(0x1_0000_0000_0000L));
            default -> new Action.SetUdpSrc(r.nextInt(0x10000));
          });
    }
    return out;
  }

  long anyPort() {
    return chance(0.3) ? RESERVED[r.nextInt(RESERVED.length)] : r.nextLong(0x1_0000_0000L);
  }

  EnumSet<FlowFlag> anyFlags() {
    EnumSet<FlowFlag> flags = EnumSet.noneOf(FlowFlag.class);
    for (FlowFlag f : FlowFlag.values()) {
      if (chance(0.2)) {
        flags.add(f);
      }
    }
    return flags;
  }

  // ---- installable state (reconcile) ----

  /**
   * Valid flows with distinct (table, priority, match) keys drawn from a small space, so that two
   * random states share some keys; groups referenced exist in {@code groupIds}.
   */
  List<FlowEntry> installableFlows(int max, List<Long> groupIds) {
    List<FlowEntry> out = new ArrayList<>();
    for (int i = 0, n = r.nextInt(max + 1); i < n; i++) {
      FlowEntry e = installableFlow(groupIds);
      if (out.stream()
          .noneMatch(
              o ->
                  o.tableId() == e.tableId()
                      && o.priority() == e.priority()
                      && o.match().equals(e.match()))) {
        out.add(e);
      }
    }
    return out;
  }

  FlowEntry installableFlow(List<Long> groupIds) {
    int table = r.nextInt(3);
    Match.Builder m = Match.builder().ipv6();
    if (chance(0.5)) {
      m.inPort(1 + r.nextInt(4));
    }
    m.ipv6Dst(MaskedIpv6.prefix(Ipv6Address.ofGroups(0xff0e, r.nextInt(4), 0, 0, 0, 0, 0, 0), 32));
    if (table > 0 && chance(0.5)) {
      m.metadata(r.nextInt(4), 3);
    }
    Match match = m.build();
    FlowEntry.Builder b =
        FlowEntry.builder()
            .table(table)
            .priority(pick(List.of(10, 20, 30)))
            .match(match)
            .cookie(r.nextInt(3));
    List<Action> actions = new ArrayList<>();
    if (chance(0.7)) {
      actions.add(Action.output(1 + r.nextInt(4)));
    }
    if (!groupIds.isEmpty() && chance(0.4)) {
      actions.add(Action.group(pick(groupIds)));
    }
    if (chance(0.2)) {
      actions.add(new Action.SetIpv6Dst(Ipv6Address.ofGroups(0xff0e, 0, 0, 0, 0, 0, 0, 1)));
    }
    b.instructions(new Instruction.ApplyActions(actions));
    if (table < 2 && chance(0.3)) {
      b.writeMetadata(r.nextInt(4), 3).gotoTable(table + 1);
    }
    if (chance(0.2)) {
      b.flag(FlowFlag.SEND_FLOW_REM);
    }
    if (chance(0.1)) {
      b.idleTimeout(1000 + r.nextInt(2));
    }
    return b.build();
  }

  /** Groups with distinct ids in 1..GROUP_IDS; ALL groups, now and then a SELECT. */
  List<GroupEntry> installableGroups() {
    List<GroupEntry> out = new ArrayList<>();
    for (long id = 1; id <= GROUP_IDS; id++) {
      if (chance(0.5)) {
        continue;
      }
      List<Bucket> buckets = new ArrayList<>();
      boolean select = chance(0.2);
      for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
        Action out1 = Action.output(1 + r.nextInt(4));
        Action rewrite =
            new Action.SetIpv6Dst(Ipv6Address.ofGroups(0xff0e, 0, 0, 0, 0, 0, 0, r.nextInt(3)));
        buckets.add(
            select ? Bucket.weighted(1 + r.nextInt(3), rewrite, out1) : Bucket.of(rewrite, out1));
      }
      out.add(new GroupEntry(id, select ? GroupType.SELECT : GroupType.ALL, buckets));
    }
    return out;
  }
}
