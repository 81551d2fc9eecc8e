package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Writes the model in {@code ovs-ofctl -O OpenFlow13} syntax, the form operators read and type:
 * {@code table=0,priority=100,ipv6,ipv6_dst=ff0e:c000::/ffff:e000::,actions=output:2} or {@code
 * group_id=5,type=all,bucket=actions=output:1,bucket=actions=output:2}. Every string written is
 * accepted by ovs-ofctl and read back by {@link OvsFlowParser}.
 */
public final class OvsFlowSyntax {
  private OvsFlowSyntax() {}

  /** The match fields; empty for {@link Match#ANY}. */
  public static String match(Match m) {
    List<String> parts = new ArrayList<>();
    String proto = protocolKeyword(m);
    if (proto != null) {
      parts.add(proto);
    } else if (m.ethType() != null) {
      parts.add(String.format("dl_type=0x%04x", m.ethType()));
    }
    if (m.metadata() != null) {
      parts.add("metadata=" + m.metadata());
    }
    if (m.inPort() != null) {
      parts.add("in_port=" + OfPort.name(m.inPort()));
    }
    if (m.ipv6Src() != null) {
      parts.add("ipv6_src=" + masked(m.ipv6Src()));
    }
    if (m.ipv6Dst() != null) {
      parts.add("ipv6_dst=" + masked(m.ipv6Dst()));
    }
    boolean protoInKeyword = proto != null && !proto.equals("ip") && !proto.equals("ipv6");
    if (m.ipProto() != null && !protoInKeyword) {
      parts.add("nw_proto=" + m.ipProto());
    }
    if (m.udpSrc() != null) {
      parts.add("udp_src=" + m.udpSrc());
    }
    if (m.udpDst() != null) {
      parts.add("udp_dst=" + m.udpDst());
    }
    if (m.icmpv6Type() != null) {
      parts.add("icmpv6_type=" + m.icmpv6Type());
    }
    return String.join(",", parts);
  }

  /** {@code udp6}, {@code ipv6}, {@code ip}, ... for the EtherType and protocol; or null. */
  private static String protocolKeyword(Match m) {
    boolean v6 = m.isEthType(PacketHeaders.ETH_TYPE_IPV6);
    if (!v6 && !m.isEthType(PacketHeaders.ETH_TYPE_IPV4)) {
      return null;
    }
    String suffix = v6 ? "6" : "";
    if (m.ipProto() == null) {
      return v6 ? "ipv6" : "ip";
    }
    return switch (m.ipProto()) {
      case 17 -> "udp" + suffix;
      case 6 -> "tcp" + suffix;
      case 132 -> "sctp" + suffix;
      case 58 -> v6 ? "icmp6" : "ip";
      default -> v6 ? "ipv6" : "ip";
    };
  }

  /** One action: {@code output:2}, {@code IN_PORT}, {@code CONTROLLER:65535}, {@code group:5}... */
  public static String action(Action a) {
    return switch (a) {
      case Action.Output o when o.port() == OfPort.CONTROLLER -> "CONTROLLER:" + o.maxLen();
      case Action.Output o when OfPort.isReserved(o.port()) -> OfPort.name(o.port());
      case Action.Output o -> "output:" + o.port();
      case Action.Group g -> "group:" + g.groupId();
      case Action.SetIpv6Src s -> "set_field:" + s.value() + "->ipv6_src";
      case Action.SetIpv6Dst s -> "set_field:" + s.value() + "->ipv6_dst";
      case Action.SetUdpSrc s -> "set_field:" + s.value() + "->udp_src";
      case Action.SetUdpDst s -> "set_field:" + s.value() + "->udp_dst";
      case Action.SetEthDst s -> "set_field:" + s.text() + "->eth_dst";
    };
  }

  /** An action list, {@code drop} if empty. */
  public static String actions(List<Action> actions) {
    if (actions.isEmpty()) {
      return "drop";
    }
    StringJoiner j = new StringJoiner(",");
    actions.forEach(a -> j.add(action(a)));
    return j.toString();
  }

  /** Instructions as the value of {@code actions=}, in the order ovs-ofctl requires (§5.9). */
  public static String instructions(List<Instruction> instructions) {
    StringJoiner j = new StringJoiner(",");
    for (Instruction i : Instruction.normalize(instructions)) {
      j.add(
          switch (i) {
            case Instruction.ApplyActions a -> actions(a.actions());
            case Instruction.ClearActions c -> "clear_actions";
            case Instruction.WriteActions w -> "write_actions(" + actions(w.actions()) + ")";
            case Instruction.WriteMetadata m ->
                "write_metadata:" + new MaskedLong(m.value(), m.mask());
            case Instruction.GotoTable g -> "goto_table:" + g.tableId();
          });
    }
    return j.length() == 0 ? "drop" : j.toString();
  }

  /** A flow entry as an {@code add-flow} argument. */
  public static String flow(FlowEntry e) {
    List<String> parts = new ArrayList<>();
    parts.add("table=" + e.tableId());
    parts.add("priority=" + e.priority());
    if (e.cookie() != 0) {
      parts.add("cookie=0x" + Long.toHexString(e.cookie()));
    }
    addTimeoutsAndFlags(parts, e.idleTimeout(), e.hardTimeout(), e.flags());
    addMatch(parts, e.match());
    parts.add("actions=" + instructions(e.instructions()));
    return String.join(",", parts);
  }

  private static void addTimeoutsAndFlags(
      List<String> parts, int idle, int hard, java.util.Set<FlowFlag> flags) {
    if (idle != 0) {
      parts.add("idle_timeout=" + idle);
    }
    if (hard != 0) {
      parts.add("hard_timeout=" + hard);
    }
    for (FlowFlag f : FlowFlag.values()) {
      if (flags.contains(f)) {
        parts.add(f.ovsName());
      }
    }
  }

  private static void addMatch(List<String> parts, Match m) {
    String s = match(m);
    if (!s.isEmpty()) {
      parts.add(s);
    }
  }

  /**
   * A flow-mod as the argument of {@code add-flow}, {@code mod-flows [--strict]} or {@code
   * del-flows [--strict]} ({@link #ofctlCommand}).
   */
  public static String flowMod(FlowMod fm) {
    if (fm.command() == FlowModCommand.ADD) {
      return flow(fm.toEntry());
    }
    List<String> parts = new ArrayList<>();
    if (!(fm.command().isDelete() && fm.tableId() == FlowMod.ALL_TABLES)) {
      parts.add("table=" + fm.tableId());
    }
    if (fm.command().isStrict()) {
      parts.add("priority=" + fm.priority());
    }
    if (fm.cookieMask() != 0) {
      parts.add(
          "cookie=0x" + Long.toHexString(fm.cookie()) + "/0x" + Long.toHexString(fm.cookieMask()));
    }
    if (fm.command().isModify()) {
      addTimeoutsAndFlags(parts, fm.idleTimeout(), fm.hardTimeout(), fm.flags());
    } else {
      if (fm.outPort() != OfPort.ANY) {
        parts.add("out_port=" + OfPort.name(fm.outPort()));
      }
      if (fm.outGroup() != FlowMod.ANY_GROUP) {
        parts.add("out_group=" + fm.outGroup());
      }
    }
    addMatch(parts, fm.match());
    if (fm.command().isModify()) {
      parts.add("actions=" + instructions(fm.instructions()));
    }
    return String.join(",", parts);
  }

  /**
   * The ovs-ofctl command and options that send this flow-mod, e.g. {@code [del-flows, --strict]}.
   */
  public static List<String> ofctlCommand(FlowMod fm) {
    return switch (fm.command()) {
      case ADD -> List.of("add-flow");
      case MODIFY -> List.of("mod-flows");
      case MODIFY_STRICT -> List.of("mod-flows", "--strict");
      case DELETE -> List.of("del-flows");
      case DELETE_STRICT -> List.of("del-flows", "--strict");
    };
  }

  /** A group as {@code add-group} takes it and {@code dump-groups} prints it. */
  public static String group(GroupEntry g) {
    return groupText(g.groupId(), g.type(), g.buckets());
  }

  private static String groupText(long id, GroupType type, List<Bucket> buckets) {
    StringBuilder sb = new StringBuilder("group_id=" + id + ",type=" + type.ovsName());
    for (Bucket b : buckets) {
      sb.append(",bucket=");
      if (type == GroupType.SELECT) {
        sb.append("weight:").append(b.weight()).append(',');
      }
      if (b.watchPort() != OfPort.ANY) {
        sb.append("watch_port:").append(OfPort.name(b.watchPort())).append(',');
      }
      if (b.watchGroup() != FlowMod.ANY_GROUP) {
        sb.append("watch_group:").append(b.watchGroup()).append(',');
      }
      sb.append("actions=").append(actions(b.actions()));
    }
    return sb.toString();
  }

  /** A group-mod as the argument of {@code add-group}, {@code mod-group} or {@code del-groups}. */
  public static String groupMod(GroupMod gm) {
    if (gm.command() == GroupModCommand.DELETE) {
      return "group_id=" + (gm.groupId() == GroupEntry.ALL ? "all" : Long.toString(gm.groupId()));
    }
    return groupText(gm.groupId(), gm.type(), gm.buckets());
  }

  /** The ovs-ofctl command that sends this group-mod. */
  public static String ofctlCommand(GroupMod gm) {
    return switch (gm.command()) {
      case ADD -> "add-group";
      case MODIFY -> "mod-group";
      case DELETE -> "del-groups";
    };
  }

  /**
   * A masked IPv6 field as ovs-ofctl reads it back. OVS 3.1 takes a mask that starts with a decimal
   * digit and a colon ("0:ffff::") for a prefix length and refuses it (it prints such masks itself
   * but cannot read them): a mask whose first group is 0 is written "::ffff:…" with the other seven
   * groups in full, which parses to the same mask.
   */
  static String masked(MaskedIpv6 m) {
    String text = m.toString();
    int slash = text.indexOf('/');
    Ipv6Address mask = m.mask();
    if (slash < 0 || !text.substring(slash + 1).startsWith("0:")) {
      return text;
    }
    StringBuilder sb = new StringBuilder(text.substring(0, slash + 1)).append(':');
    for (int g = 1; g < 8; g++) {
      long word = g < 4 ? mask.high() : mask.low();
      int shift = 48 - 16 * (g % 4);
      sb.append(':').append(Long.toHexString((word >>> shift) & 0xffff));
    }
    return sb.toString();
  }

  /** Packet headers as an ovs-ofctl flow ({@code ofproto/trace} input) without the in_port. */
  public static String packet(PacketHeaders h) {
    List<String> parts = new ArrayList<>();
    if (h.isUdp()) {
      parts.add(h.isIpv6() ? "udp6" : "udp");
    } else if (h.isIp()) {
      parts.add(h.isIpv6() ? "ipv6" : "ip");
      parts.add("nw_proto=" + h.ipProto());
    } else {
      parts.add(String.format("dl_type=0x%04x", h.ethType()));
    }
    if (h.isIpv6()) {
      parts.add("ipv6_src=" + h.ipv6Src());
      parts.add("ipv6_dst=" + h.ipv6Dst());
    }
    if (h.isUdp()) {
      parts.add("udp_src=" + h.udpSrc());
      parts.add("udp_dst=" + h.udpDst());
    }
    if (h.isIcmpv6()) {
      parts.add("icmpv6_type=" + h.icmpv6Type());
    }
    return String.join(",", parts);
  }

  /** A packet entering by a port, as {@code ovs-appctl ofproto/trace} takes it. */
  public static String packet(long inPort, PacketHeaders h) {
    return "in_port=" + OfPort.name(inPort) + "," + packet(h);
  }
}
