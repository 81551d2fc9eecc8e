package org.netpubsub.controller.controlplane;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.camus.FatTree;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.topology.Topology;

/** Random request streams on a small fat tree, and the one-configurator reference. */
final class ControlPlaneRequests {
  static final Topology NET = FatTree.of(4);
  static final int EVENT_DEPTH = 7;

  private ControlPlaneRequests() {}

  /** Additions by random hosts with random cells, and withdrawals of random standing ones. */
  static List<ControlRequest> random(Random random, int n) {
    List<Ipv6Address> hosts = new ArrayList<>(NET.hosts().keySet());
    List<ControlRequest> standing = new ArrayList<>();
    List<ControlRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!standing.isEmpty() && random.nextInt(4) == 0) {
        out.add(standing.remove(random.nextInt(standing.size())).withdrawal());
        continue;
      }
      Ipv6Address host = hosts.get(random.nextInt(hosts.size()));
      List<Dz> cells = new ArrayList<>();
      for (int c = 0, m = 1 + random.nextInt(3); c < m; c++) {
        Dz d = Dz.EMPTY;
        for (int b = 0, len = random.nextInt(6); b < len; b++) {
          d = d.append(random.nextInt(2));
        }
        cells.add(d);
      }
      ControlRequest r =
          random.nextInt(4) == 0
              ? ControlRequest.advertise("a" + i, host, DzSet.of(cells))
              : ControlRequest.subscribe("s" + i, host, 7000 + random.nextInt(2), DzSet.of(cells));
      standing.add(r);
      out.add(r);
    }
    return out;
  }

  /** One configurator given the requests in order: the forwarding every partitioning must match. */
  static Configurator reference(List<ControlRequest> requests) {
    return reference(NET, requests);
  }

  /** The same on another topology (NET with a link or switch down, say). */
  static Configurator reference(Topology topology, List<ControlRequest> requests) {
    Configurator c = Configurator.on(topology);
    requests.forEach(r -> r.applyTo(c));
    return c;
  }

  static List<Dz> events() {
    List<Dz> out = new ArrayList<>();
    for (int i = 0; i < 1 << EVENT_DEPTH; i++) {
      Dz d = Dz.EMPTY;
      for (int b = EVENT_DEPTH - 1; b >= 0; b--) {
        d = d.append((i >>> b) & 1);
      }
      out.add(d);
    }
    return out;
  }
}
