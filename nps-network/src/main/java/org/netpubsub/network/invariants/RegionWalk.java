package org.netpubsub.network.invariants;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.Pipeline;
import org.netpubsub.network.openflow.PipelinePolicy;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The walk of a region of destinations (the Camus pipeline's query addresses) across switches, as
 * {@link FlowInvariants}' walk of one class does, but with the region as the class ({@link Cube}):
 * a switch's run cuts the region into the parts its tables tell apart, and each part goes on with
 * the path it came by. A part's copies keep the part as their destination until a rewrite makes it
 * one address. Loops and black holes are those of {@link FlowInvariants}, with one difference: the
 * region is the Camus pipeline's, whose table-0 entry every switch holds for all of it, so a miss
 * in table 0 after a link is a black hole here although the addresses are content addresses.
 */
final class RegionWalk {
  private static final Pipeline PIPELINE = new Pipeline(PipelinePolicy.INVARIANT_CHECKER);
  private static final SwitchTables EMPTY = new SwitchTables();

  private final Map<Long, SwitchTables> switches;
  private final Topology topology;
  private final Set<Long> changed;
  private final List<SwitchPort> path = new ArrayList<>();
  private final List<Arrival> onPath = new ArrayList<>();
  private final Set<Arrival> clean = new HashSet<>(); // explored: nothing broken below
  private int runs;
  private Violation found;

  /**
   * A copy entering a switch: its headers (destination zero while it is a region) and its region
   * (null once rewritten: the headers' destination is its one address).
   */
  private record Arrival(
      long dpid, long inPort, PacketHeaders headers, Box region, boolean byLink) {
    /** Whether a copy arriving so repeats this one on its own path (so it loops). */
    boolean repeatedBy(Arrival a) {
      return a.dpid == dpid
          && a.inPort == inPort
          && a.headers.equals(headers)
          && (a.region == null) == (region == null);
      // a region only shrinks along a path, so a repeated arrival's addresses all came this way
    }
  }

  private final int[] segments;

  RegionWalk(
      Map<Long, SwitchTables> switches, Topology topology, Set<Long> changed, int[] segments) {
    this.switches = switches;
    this.segments = segments;
    this.topology = topology;
    this.changed = changed;
  }

  /** The pipeline runs so far (one per part of a region at a switch). */
  int runs() {
    return runs;
  }

  /** The first violation of the region's UDP datagrams sent in by every port of {@code starts}. */
  Optional<Violation> walk(
      org.netpubsub.network.openflow.MaskedIpv6 field, int udpPort, Iterable<Long> starts) {
    Box region = Box.of(field, segments);
    PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, Ipv6Address.ZERO, udpPort, udpPort);
    for (long dpid : starts) {
      if (!topology.hasSwitch(dpid)) {
        continue;
      }
      for (long port : topology.ports(dpid)) {
        visit(new Arrival(dpid, port, h, region, false), 0);
        if (found != null) {
          return Optional.of(found);
        }
      }
    }
    return Optional.empty();
  }

  /** Whether nothing below is broken; sets {@link #found} for a violation the batch causes. */
  private boolean visit(Arrival a, int hops) {
    if (clean.contains(a)) {
      return true;
    }
    path.add(new SwitchPort(a.dpid, a.inPort));
    try {
      PacketHeaders named =
          a.region == null ? a.headers : a.headers.withIpv6Dst(a.region.representative());
      if (hops > FlowInvariants.MAX_HOPS || onPath.stream().anyMatch(p -> p.repeatedBy(a))) {
        return broken(Violation.Kind.LOOP, named.ipv6Dst(), a.region);
      }
      onPath.add(a);
      boolean ok = true;
      Deque<Box> parts = new ArrayDeque<>();
      parts.add(
          a.region == null
              ? Box.of(
                  org.netpubsub.network.openflow.MaskedIpv6.exact(a.headers.ipv6Dst()), segments)
              : a.region);
      SwitchTables t = switches.getOrDefault(a.dpid, EMPTY);
      while (!parts.isEmpty() && found == null) {
        Box part = parts.poll();
        Cube cube = new Cube(part);
        PacketHeaders h = a.headers.withIpv6Dst(cube.representative());
        runs++;
        Pipeline.Outcome r =
            PIPELINE.run(CheckedDatapath.cutting(t, topology.ports(a.dpid), cube), a.inPort, h);
        parts.addAll(cube.cutOff());
        if (r.missedTable0() && a.byLink) {
          ok = broken(Violation.Kind.BLACK_HOLE, h.ipv6Dst(), cube.region());
        }
        for (Egress c : r.egresses()) {
          if (found != null) {
            break;
          }
          SwitchPort out = new SwitchPort(a.dpid, c.port());
          Optional<Link> link = topology.linkAt(out);
          if (link.isPresent()) {
            SwitchPort peer = link.get().peer(out);
            boolean kept = a.region != null && c.headers().ipv6Dst().equals(h.ipv6Dst());
            Arrival next =
                new Arrival(
                    peer.dpid(),
                    peer.port(),
                    kept ? c.headers().withIpv6Dst(Ipv6Address.ZERO) : c.headers(),
                    kept ? cube.region() : null,
                    true);
            ok &= visit(next, hops + 1);
          }
        }
      }
      onPath.removeLast();
      if (ok && found == null) {
        clean.add(a);
      }
      return ok;
    } finally {
      path.removeLast();
    }
  }

  private boolean broken(Violation.Kind kind, Ipv6Address packetClass, Box region) {
    if (found == null && path.stream().anyMatch(p -> changed.contains(p.dpid()))) {
      found = new Violation(kind, packetClass, path, region == null ? null : region.toString());
    }
    return false;
  }
}
