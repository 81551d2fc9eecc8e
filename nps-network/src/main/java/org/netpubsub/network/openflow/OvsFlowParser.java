package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Reads flows and groups in ovs-ofctl syntax: what {@link OvsFlowSyntax} writes and what {@code
 * ovs-ofctl -O OpenFlow13 dump-flows} / {@code dump-groups} print (statistics are skipped). Only
 * the fields and actions of this model are accepted; anything else is an IllegalArgumentException
 * naming it, never silently dropped.
 */
public final class OvsFlowParser {
  private OvsFlowParser() {}

  /** A flow entry from one {@code dump-flows} line or an {@code add-flow} argument. */
  public static FlowEntry parseFlow(String line) {
    int at = line.indexOf("actions=");
    if (at < 0) {
      throw new IllegalArgumentException("no actions= in flow: " + line);
    }
    FlowEntry.Builder b = FlowEntry.builder();
    Match.Builder m = Match.builder();
    Integer[] proto = {null};
    for (String token : line.substring(0, at).trim().split("[,\\s]+")) {
      if (!token.isEmpty()) {
        flowToken(token, b, m, proto, line);
      }
    }
    if (proto[0] != null) {
      m.ipProto(proto[0]);
    }
    Match match = m.build();
    if (match.icmpv6Type() != null && match.prerequisiteError().isPresent()) {
      throw new IllegalArgumentException("icmp_type is modelled for ICMPv6 only, in: " + line);
    }
    return b.match(match).instructions(parseInstructions(line.substring(at + 8).trim())).build();
  }

  private static void flowToken(
      String token, FlowEntry.Builder b, Match.Builder m, Integer[] proto, String line) {
    int eq = token.indexOf('=');
    String key = (eq < 0 ? token : token.substring(0, eq)).toLowerCase(Locale.ROOT);
    String value = eq < 0 ? null : token.substring(eq + 1);
    switch (key) {
      case "table" -> b.table(Integer.parseInt(value));
      case "priority" -> b.priority(Integer.parseInt(value));
      case "cookie" -> b.cookie(unsigned(value));
      case "idle_timeout" -> b.idleTimeout(Integer.parseInt(value));
      case "hard_timeout" -> b.hardTimeout(Integer.parseInt(value));
      case "duration", "n_packets", "n_bytes", "idle_age", "hard_age" -> {} // statistics
      case "send_flow_rem" -> b.flag(FlowFlag.SEND_FLOW_REM);
      case "check_overlap" -> b.flag(FlowFlag.CHECK_OVERLAP);
      case "reset_counts" -> b.flag(FlowFlag.RESET_COUNTS);
      case "no_packet_counts" -> b.flag(FlowFlag.NO_PKT_COUNTS);
      case "no_byte_counts" -> b.flag(FlowFlag.NO_BYT_COUNTS);
      case "in_port" -> m.inPort(OfPort.parse(value));
      case "dl_type", "eth_type" -> m.ethType(Integer.decode(value));
      case "nw_proto", "ip_proto" -> proto[0] = Integer.decode(value);
      case "ipv6_src" -> m.ipv6Src(MaskedIpv6.parse(value));
      case "ipv6_dst" -> m.ipv6Dst(MaskedIpv6.parse(value));
      case "tp_src", "udp_src" -> m.udpSrc(Integer.decode(value));
      case "tp_dst", "udp_dst" -> m.udpDst(Integer.decode(value));
      case "metadata" -> m.metadata(parseMaskedLong(value));
      case "icmp_type", "icmpv6_type" -> m.icmpv6Type(Integer.decode(value));
      default -> {
        if (!protocolKeyword(key, m, proto)) {
          throw new IllegalArgumentException("unsupported flow field '" + token + "' in: " + line);
        }
      }
    }
  }

  /** {@code ip}, {@code udp6}, ... set eth_type and ip_proto; false if not such a keyword. */
  private static boolean protocolKeyword(String key, Match.Builder m, Integer[] proto) {
    int[] typeAndProto =
        switch (key) {
          case "ip" -> new int[] {PacketHeaders.ETH_TYPE_IPV4, -1};
          case "ipv6" -> new int[] {PacketHeaders.ETH_TYPE_IPV6, -1};
          case "icmp" -> new int[] {PacketHeaders.ETH_TYPE_IPV4, 1};
          case "icmp6" -> new int[] {PacketHeaders.ETH_TYPE_IPV6, 58};
          case "tcp" -> new int[] {PacketHeaders.ETH_TYPE_IPV4, 6};
          case "tcp6" -> new int[] {PacketHeaders.ETH_TYPE_IPV6, 6};
          case "udp" -> new int[] {PacketHeaders.ETH_TYPE_IPV4, 17};
          case "udp6" -> new int[] {PacketHeaders.ETH_TYPE_IPV6, 17};
          case "sctp" -> new int[] {PacketHeaders.ETH_TYPE_IPV4, 132};
          case "sctp6" -> new int[] {PacketHeaders.ETH_TYPE_IPV6, 132};
          case "arp" -> new int[] {0x0806, -1};
          case "rarp" -> new int[] {0x8035, -1};
          case "mpls" -> new int[] {0x8847, -1};
          case "mplsm" -> new int[] {0x8848, -1};
          default -> null;
        };
    if (typeAndProto == null) {
      return false;
    }
    m.ethType(typeAndProto[0]);
    if (typeAndProto[1] >= 0) {
      proto[0] = typeAndProto[1];
    }
    return true;
  }

  private static MaskedLong parseMaskedLong(String value) {
    int slash = value.indexOf('/');
    if (slash < 0) {
      return MaskedLong.exact(unsigned(value));
    }
    return new MaskedLong(
        unsigned(value.substring(0, slash)), unsigned(value.substring(slash + 1)));
  }

  /** An unsigned 64-bit number, hexadecimal with 0x (as ovs-ofctl prints most) or decimal. */
  private static long unsigned(String v) {
    try {
      return v.startsWith("0x") || v.startsWith("0X")
          ? Long.parseUnsignedLong(v.substring(2), 16)
          : Long.parseUnsignedLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number: '" + v + "'");
    }
  }

  /** The value of {@code actions=}: apply-actions plus instructions. */
  public static List<Instruction> parseInstructions(String text) {
    List<Instruction> out = new ArrayList<>();
    List<Action> apply = new ArrayList<>();
    for (String token : splitTopLevel(text)) {
      String t = token.trim();
      String lower = t.toLowerCase(Locale.ROOT);
      if (lower.equals("drop")) {
        continue;
      } else if (lower.equals("clear_actions")) {
        out.add(Instruction.clearActions());
      } else if (lower.startsWith("write_actions(") && t.endsWith(")")) {
        out.add(new Instruction.WriteActions(parseActions(t.substring(14, t.length() - 1))));
      } else if (lower.startsWith("write_metadata:")) {
        MaskedLong v = parseMaskedLong(t.substring(15));
        out.add(Instruction.writeMetadata(v.value(), v.mask()));
      } else if (lower.startsWith("goto_table:")) {
        out.add(Instruction.gotoTable(Integer.parseInt(t.substring(11))));
      } else {
        apply.add(parseAction(t));
      }
    }
    out.add(new Instruction.ApplyActions(apply));
    return Instruction.normalize(out);
  }

  /** A flat action list ({@code drop} or empty: none). */
  public static List<Action> parseActions(String text) {
    List<Action> out = new ArrayList<>();
    for (String token : splitTopLevel(text)) {
      String t = token.trim();
      if (!t.isEmpty() && !t.equalsIgnoreCase("drop")) {
        out.add(parseAction(t));
      }
    }
    return out;
  }

  /** One action: output:N, N, IN_PORT, ALL, FLOOD, LOCAL, CONTROLLER[:len], group:N, set_field. */
  public static Action parseAction(String t) {
    String lower = t.toLowerCase(Locale.ROOT);
    if (lower.startsWith("output:")) {
      return Action.output(OfPort.parse(t.substring(7)));
    }
    if (lower.equals("controller")) {
      return Action.output(OfPort.CONTROLLER);
    }
    if (lower.startsWith("controller:")) {
      return new Action.Output(OfPort.CONTROLLER, Integer.parseInt(t.substring(11)));
    }
    if (lower.startsWith("group:")) {
      return Action.group(Long.parseLong(t.substring(6)));
    }
    // ovs-ofctl prints these set_fields in their OpenFlow 1.0 spelling
    if (lower.startsWith("mod_dl_dst:")) {
      return new Action.SetEthDst(macValue(t.substring(11)));
    }
    if (lower.startsWith("mod_tp_dst:")) {
      return new Action.SetUdpDst(Integer.decode(t.substring(11)));
    }
    if (lower.startsWith("mod_tp_src:")) {
      return new Action.SetUdpSrc(Integer.decode(t.substring(11)));
    }
    if (lower.startsWith("set_field:")) {
      int arrow = t.indexOf("->");
      if (arrow < 0) {
        throw new IllegalArgumentException("set_field without '->': " + t);
      }
      String value = t.substring(10, arrow);
      return switch (t.substring(arrow + 2).toLowerCase(Locale.ROOT)) {
        case "ipv6_src" -> new Action.SetIpv6Src(Ipv6Address.parse(value));
        case "ipv6_dst" -> new Action.SetIpv6Dst(Ipv6Address.parse(value));
        case "udp_src", "tp_src" -> new Action.SetUdpSrc(Integer.decode(value));
        case "udp_dst", "tp_dst" -> new Action.SetUdpDst(Integer.decode(value));
        case "eth_dst", "dl_dst" -> new Action.SetEthDst(macValue(value));
        default -> throw new IllegalArgumentException("unsupported set_field: " + t);
      };
    }
    try {
      return Action.output(OfPort.parse(t)); // a bare port number or reserved port name
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unsupported action '" + t + "'", e);
    }
  }

  private static long macValue(String text) {
    String[] parts = text.split(":");
    if (parts.length != 6) {
      throw new IllegalArgumentException("not a MAC address: '" + text + "'");
    }
    long v = 0;
    for (String p : parts) {
      v = v << 8 | Integer.parseInt(p, 16);
    }
    return v;
  }

  /** A group from one {@code dump-groups} line or an {@code add-group} argument. */
  public static GroupEntry parseGroup(String line) {
    String[] parts = line.trim().split(",bucket=", -1);
    Long id = null;
    GroupType type = null;
    for (String token : parts[0].split(",")) {
      String t = token.trim();
      if (t.startsWith("group_id=")) {
        id = Long.parseLong(t.substring(9));
      } else if (t.startsWith("type=")) {
        type = GroupType.fromOvsName(t.substring(5));
      } else {
        throw new IllegalArgumentException("unsupported group field '" + t + "' in: " + line);
      }
    }
    if (id == null || type == null) {
      throw new IllegalArgumentException("group needs group_id and type: " + line);
    }
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      buckets.add(parseBucket(parts[i], type, line));
    }
    return new GroupEntry(id, type, buckets);
  }

  private static Bucket parseBucket(String text, GroupType type, String line) {
    int at = text.indexOf("actions=");
    if (at < 0) {
      throw new IllegalArgumentException("bucket without actions= in: " + line);
    }
    int weight = type == GroupType.SELECT ? 1 : 0; // ovs-ofctl's defaults
    long watchPort = OfPort.ANY;
    long watchGroup = FlowMod.ANY_GROUP;
    for (String token : text.substring(0, at).split(",")) {
      String t = token.trim();
      if (t.isEmpty()) {
        continue;
      }
      String[] kv = t.split("[:=]", 2);
      switch (kv[0]) {
        case "weight" -> weight = Integer.parseInt(kv[1]);
        case "watch_port" -> watchPort = OfPort.parse(kv[1]);
        case "watch_group" -> watchGroup = Long.parseLong(kv[1]);
        case "bucket_id" -> {} // OpenFlow 1.5 numbering, not part of the 1.3 model
        default ->
            throw new IllegalArgumentException("unsupported bucket field '" + t + "' in: " + line);
      }
    }
    return new Bucket(weight, watchPort, watchGroup, parseActions(text.substring(at + 8)));
  }

  /** Splits at commas outside parentheses. */
  static List<String> splitTopLevel(String text) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        out.add(text.substring(start, i));
        start = i + 1;
      }
    }
    if (depth != 0) {
      throw new IllegalArgumentException("unbalanced parentheses: " + text);
    }
    String last = text.substring(start);
    if (!last.isBlank() || !out.isEmpty()) {
      out.add(last);
    }
    return out;
  }
}
