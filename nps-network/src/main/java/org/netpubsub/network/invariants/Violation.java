package org.netpubsub.network.invariants;

import java.util.List;
import java.util.stream.Collectors;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.SwitchPort;

/**
 * A broken invariant: the packet class (named by one of its addresses) and the path its copy took,
 * as the ports it entered each switch by. For a {@link Kind#LOOP} the last step repeats an earlier
 * one; for a {@link Kind#BLACK_HOLE} the last switch has no entry for the packet. A violation of
 * the Camus pipeline's query addresses also gives the whole class ({@code region}, a ternary {@code
 * ipv6_dst} field: the query field values it holds), else {@code region} is null.
 */
public record Violation(Kind kind, Ipv6Address packetClass, List<SwitchPort> path, String region) {

  /** Which invariant broke (EMD §4.3). */
  public enum Kind {
    /** A copy enters a switch by a port, with headers, that it entered by before. */
    LOOP,
    /** A unicast copy crosses a link into a switch whose table 0 has no entry for it. */
    BLACK_HOLE
  }

  public Violation {
    path = List.copyOf(path);
  }

  public Violation(Kind kind, Ipv6Address packetClass, List<SwitchPort> path) {
    this(kind, packetClass, path, null);
  }

  /**
   * {@code loop for ipv6_dst class of fd00::1: 1/3 -> 2/1 -> 1/3} (dpids in hex, ports); a query
   * class adds its values per segment: {@code ... of ff0e:: (0:ff0e 16:0-ffff ...): ...}.
   */
  @Override
  public String toString() {
    return (kind == Kind.LOOP ? "loop" : "black hole")
        + " for ipv6_dst class of "
        + packetClass
        + (region == null ? "" : " (" + region + ")")
        + ": "
        + path.stream()
            .map(p -> Long.toHexString(p.dpid()) + "/" + p.port())
            .collect(Collectors.joining(" -> "));
  }
}
