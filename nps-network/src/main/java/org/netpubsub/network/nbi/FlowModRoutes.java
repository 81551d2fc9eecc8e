package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Reads the unicast route an app's flow-mod states, for the invariant checker: a flow on an IPv6
 * destination that outputs to one physical port forwards it there; deleting such a flow, or one
 * with no output, stops forwarding. Anything else (no ipv6_dst, several outputs, groups, reserved
 * ports such as CONTROLLER or FLOOD) is not a unicast route and is not checked.
 */
public final class FlowModRoutes {
  private FlowModRoutes() {}

  public static Optional<RouteChange> of(long dpid, FlowMod mod) {
    if (mod.match().ipv6Dst() == null) {
      return Optional.empty();
    }
    if (mod.command().isDelete()) {
      return Optional.of(RouteChange.drop(dpid, mod.match().ipv6Dst()));
    }
    List<Action> sends = new ArrayList<>();
    for (Instruction i : mod.instructions()) {
      List<Action> actions =
          switch (i) {
            case Instruction.ApplyActions a -> a.actions();
            case Instruction.WriteActions w -> w.actions();
            default -> List.of();
          };
      for (Action a : actions) {
        if (a instanceof Action.Output || a instanceof Action.Group) {
          sends.add(a);
        }
      }
    }
    if (sends.isEmpty()) {
      return Optional.of(RouteChange.drop(dpid, mod.match().ipv6Dst()));
    }
    if (sends.size() == 1
        && sends.get(0) instanceof Action.Output o
        && SwitchPort.isPhysical(o.port())) {
      return Optional.of(RouteChange.output(dpid, mod.match().ipv6Dst(), o.port()));
    }
    return Optional.empty();
  }
}
