package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Reads the forwarding out of {@code ovs-appctl ofproto/trace}: the "Datapath actions" line is what
 * the switch actually does with the packet (its OpenFlow-level lines are commentary). Outputs there
 * are datapath port numbers, mapped back to OpenFlow numbers with {@code dpif/show}; header
 * rewrites ({@code set(ipv6(dst=...))}) are cumulative and apply to the outputs that follow them.
 * Anything unexpected fails loudly rather than being skipped.
 */
final class OvsTraceParser {
  private OvsTraceParser() {}

  static Forwarding parse(String trace, PacketHeaders input, Map<Long, Long> datapathToOpenFlow) {
    String actions = null;
    for (String line : trace.split("\n")) {
      if (line.startsWith("Datapath actions:")) {
        actions = line.substring("Datapath actions:".length()).trim();
      }
    }
    if (actions == null) {
      throw new IllegalArgumentException("no 'Datapath actions' in trace:\n" + trace);
    }
    if (trace.contains("Translation failed")) {
      if (!actions.equals("drop")) {
        throw new IllegalArgumentException("failed translation with actions: " + actions);
      }
      return Forwarding.FAILED;
    }
    List<Egress> out = new ArrayList<>();
    execute(actions, input, datapathToOpenFlow, out);
    return Forwarding.of(out);
  }

  /** Executes a datapath action list on a copy of the headers; returns the headers after it. */
  private static PacketHeaders execute(
      String actions, PacketHeaders h, Map<Long, Long> ports, List<Egress> out) {
    for (String raw : OvsFlowParser.splitTopLevel(actions)) {
      String a = raw.trim();
      if (a.equals("drop") || a.isEmpty()) {
        continue;
      } else if (a.chars().allMatch(Character::isDigit)) {
        Long port = ports.get(Long.parseLong(a));
        if (port == null) {
          throw new IllegalArgumentException("unknown datapath port " + a + " in " + ports);
        }
        out.add(new Egress(port, h));
      } else if (a.startsWith("userspace(") && a.contains("controller(")) {
        out.add(new Egress(OfPort.CONTROLLER, h));
      } else if (a.startsWith("set(ipv6(") && a.endsWith("))")) {
        h = setFields(h, a.substring(9, a.length() - 2), true);
      } else if (a.startsWith("set(udp(") && a.endsWith("))")) {
        h = setFields(h, a.substring(8, a.length() - 2), false);
      } else if (a.startsWith("clone(") && a.endsWith(")")) {
        execute(a.substring(6, a.length() - 1), h, ports, out); // a copy; h stays
      } else {
        throw new IllegalArgumentException("unexpected datapath action '" + a + "'");
      }
    }
    return h;
  }

  /** Applies {@code src=..,dst=..} (each maybe /mask) of a set(ipv6(...)) or set(udp(...)). */
  private static PacketHeaders setFields(PacketHeaders h, String fields, boolean ipv6) {
    for (String kv : fields.split(",")) {
      int eq = kv.indexOf('=');
      String key = kv.substring(0, eq);
      String value = kv.substring(eq + 1);
      if (ipv6 && (key.equals("src") || key.equals("dst"))) {
        MaskedIpv6 v = MaskedIpv6.parse(value);
        Ipv6Address old = key.equals("src") ? h.ipv6Src() : h.ipv6Dst();
        Ipv6Address now = old.and(v.mask().not()).or(v.value());
        h = key.equals("src") ? h.withIpv6Src(now) : h.withIpv6Dst(now);
      } else if (!ipv6 && (key.equals("src") || key.equals("dst"))) {
        int port = Integer.parseInt(value.contains("/") ? value.split("/")[0] : value);
        h = key.equals("src") ? h.withUdpSrc(port) : h.withUdpDst(port);
      } else {
        throw new IllegalArgumentException("unexpected field '" + kv + "' in a datapath set");
      }
    }
    return h;
  }
}
