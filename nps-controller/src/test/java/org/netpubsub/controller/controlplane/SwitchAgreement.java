package org.netpubsub.controller.controlplane;

import static org.netpubsub.controller.controlplane.ControlPlaneRequests.NET;

import java.util.Comparator;
import java.util.List;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * Whether the simulated switches forward every test event exactly as one configurator holding the
 * requests would: at every switch, the highest-priority content flow matching the event carries the
 * same instructions.
 */
final class SwitchAgreement {
  private SwitchAgreement() {}

  /** The first switch and event where they differ, or null when they agree everywhere. */
  static String firstDifference(SimulatedSwitches switches, Configurator one) {
    for (long dpid : NET.switches()) {
      List<FlowEntry> onSwitch =
          switches.flows(dpid).stream().filter(f -> f.cookie() == ContentFlows.COOKIE).toList();
      List<FlowEntry> wanted = ContentFlows.entries(one.table(dpid));
      for (Dz event : ControlPlaneRequests.events()) {
        if (!forwarding(onSwitch, event).equals(forwarding(wanted, event))) {
          return "event " + event + " at switch " + Long.toHexString(dpid);
        }
      }
    }
    return null;
  }

  private static List<?> forwarding(List<FlowEntry> flows, Dz event) {
    return flows.stream()
        .filter(f -> f.match().ipv6Dst().matches(ContentFlows.address(event)))
        .max(Comparator.comparingInt(FlowEntry::priority))
        .<List<?>>map(FlowEntry::instructions)
        .orElse(List.of());
  }
}
