package org.netpubsub.network.nbi;

import java.util.OptionalLong;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.topology.SwitchPort;

/**
 * What an app's flow-mod does to forwarding towards one destination, as the invariant checker sees
 * it: switch {@code dpid} now sends traffic for {@code destination} out of {@code outPort}, or —
 * with no port — no longer forwards it (its rule is deleted, or it drops). The southbound adapter
 * derives it from the flow-mod's ipv6_dst match and output action.
 */
public record RouteChange(long dpid, MaskedIpv6 destination, OptionalLong outPort) {
  public RouteChange {
    if (destination == null || outPort == null) {
      throw new IllegalArgumentException("a route change has a destination and an output");
    }
    if (outPort.isPresent() && !SwitchPort.isPhysical(outPort.getAsLong())) {
      throw new IllegalArgumentException(
          "the checker follows output to physical ports only: " + outPort.getAsLong());
    }
  }

  /** {@code dpid} forwards traffic for {@code destination} out of {@code port}. */
  public static RouteChange output(long dpid, MaskedIpv6 destination, long port) {
    return new RouteChange(dpid, destination, OptionalLong.of(port));
  }

  /** {@code dpid} stops forwarding traffic for {@code destination}. */
  public static RouteChange drop(long dpid, MaskedIpv6 destination) {
    return new RouteChange(dpid, destination, OptionalLong.empty());
  }

  @Override
  public String toString() {
    String action = outPort.isPresent() ? "output:" + outPort.getAsLong() : "drop";
    return Long.toHexString(dpid) + " " + destination + " -> " + action;
  }
}
