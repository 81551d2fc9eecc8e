package org.netpubsub.network.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.netpubsub.network.sim.Trace;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Topology;

/** The end-to-end check of the base app on a simulated network: who reaches whom, and how. */
public final class Reachability {
  private Reachability() {}

  /** Installs the app's desired flows for {@code believed} (what the controller knows). */
  public static void install(SimulatedNetwork net, Topology believed) {
    net.install(UnicastRouting.desiredFlows(believed));
  }

  /**
   * For every ordered pair of hosts: if their switches are connected in {@code up} (the links
   * actually up), a UDP packet arrives exactly once, at the destination, unchanged, over a shortest
   * path, with nothing punted; otherwise nothing arrives. Never a loop. Returns the pairs checked.
   */
  public static int checkAllPairs(SimulatedNetwork net, Topology up) {
    int pairs = 0;
    for (String a : net.hostNames()) {
      Host src = net.host(a);
      Map<Long, Integer> dist = up.distances(src.attachment().dpid());
      for (String b : net.hostNames()) {
        Host dst = net.host(b);
        if (a.equals(b)) {
          continue;
        }
        PacketHeaders p = PacketHeaders.udp6(src.address(), dst.address(), 4000, 5000);
        Trace t = net.send(a, p);
        Integer d = dist.get(dst.attachment().dpid());
        assertThat(t.loop()).as("%s -> %s loops", a, b).isFalse();
        assertThat(t.packetIns()).as("%s -> %s punted", a, b).isEmpty();
        if (d == null) {
          assertThat(t.deliveries()).as("%s -> %s across a partition", a, b).isEmpty();
        } else {
          assertThat(t.reachesOnly(b)).as("%s -> %s: %s", a, b, t).isTrue();
          assertThat(t.deliveries().get(0).headers()).isEqualTo(p);
          assertThat(t.deliveries().get(0).links()).as("%s -> %s hops", a, b).isEqualTo(d);
        }
        pairs++;
      }
    }
    return pairs;
  }
}
