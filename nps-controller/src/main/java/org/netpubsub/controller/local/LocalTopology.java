package org.netpubsub.controller.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;

/**
 * The local network's wiring, the shape of PLEROMA's test bed (testbed/nps_testbed/topologies.py
 * {@code pleroma}): two cores s1, s2; aggregation switches s3–s6; edge switches s7–s10, each
 * aggregation switch linked to both cores and to both edge switches of its pod (16 cables). Hosts
 * h1–h8 sit on ports 1 and 2 of the edge switches, as on the test bed, with the test bed's
 * addresses {@code fd6e:7073:1::N}; further hosts take ports 5, 6, … of the edge switches in turn
 * (addresses {@code fd6e:7073:1::9} onwards; the controller's start-up warm-up builds it with none,
 * so it probes 40 ports rather than 280). Pure data.
 */
public final class LocalTopology {
  /** Host ports per edge switch beyond the test bed's two. */
  public static final int EXTRA_PORTS_PER_EDGE = 60;

  static final long FIRST_EDGE = 7;
  static final int EDGES = 4;
  static final int TESTBED_HOSTS = 8;

  private final Map<Long, List<Long>> ports = new TreeMap<>();
  private final List<Link> cables = new ArrayList<>();
  private final int extraPortsPerEdge;

  public LocalTopology() {
    this(EXTRA_PORTS_PER_EDGE);
  }

  /** With {@code extraPortsPerEdge} host ports per edge switch beyond the test bed's two. */
  public LocalTopology(int extraPortsPerEdge) {
    if (extraPortsPerEdge < 0) {
      throw new IllegalArgumentException(
          "extra ports per edge switch must be 0 or more, not " + extraPortsPerEdge);
    }
    this.extraPortsPerEdge = extraPortsPerEdge;
    for (long s = 1; s <= 10; s++) {
      List<Long> p = new ArrayList<>(List.of(1L, 2L, 3L, 4L));
      if (s >= FIRST_EDGE) {
        for (long extra = 5; extra < 5 + extraPortsPerEdge; extra++) {
          p.add(extra);
        }
      }
      ports.put(s, List.copyOf(p));
    }
    // Ports are numbered per switch in the order the test bed adds its links: edge switches' hosts
    // first (1, 2), then aggregation to edge, then aggregation to core.
    for (int pod = 0; pod < 2; pod++) {
      for (int e = 0; e < 2; e++) {
        long edge = FIRST_EDGE + 2L * pod + e;
        for (int a = 0; a < 2; a++) {
          long agg = 3 + 2L * pod + a;
          cables.add(Link.of(agg, 1 + e, edge, 3 + a));
        }
      }
    }
    for (int pod = 0; pod < 2; pod++) {
      for (int a = 0; a < 2; a++) {
        long agg = 3 + 2L * pod + a;
        for (long core = 1; core <= 2; core++) {
          cables.add(Link.of(agg, 2 + core, core, 1 + 2L * pod + a));
        }
      }
    }
  }

  /** Every switch (dpid 1–10) and its port numbers. */
  public Map<Long, List<Long>> switchPorts() {
    return ports;
  }

  public List<Link> cables() {
    return List.copyOf(cables);
  }

  /** The port at the other end of the cable at {@code p}; empty for a host port. */
  public Optional<SwitchPort> peer(SwitchPort p) {
    for (Link l : cables) {
      if (l.a().equals(p)) {
        return Optional.of(l.b());
      }
      if (l.b().equals(p)) {
        return Optional.of(l.a());
      }
    }
    return Optional.empty();
  }

  /** How many hosts fit: the test bed's 8 and the extra ports. */
  public int capacity() {
    return TESTBED_HOSTS + EDGES * extraPortsPerEdge;
  }

  /** Host n (1-based): its address. */
  public static Ipv6Address address(int n) {
    return Ipv6Address.parse("fd6e:7073:1::" + Integer.toHexString(n));
  }

  /** Host n (1-based): the edge port it hangs off. */
  public SwitchPort attachment(int n) {
    if (n < 1 || n > capacity()) {
      throw new IllegalArgumentException("no host slot " + n);
    }
    if (n <= TESTBED_HOSTS) {
      return SwitchPort.of(FIRST_EDGE + (n - 1) / 2, 1 + (n - 1) % 2);
    }
    int k = n - TESTBED_HOSTS - 1;
    return SwitchPort.of(FIRST_EDGE + k % EDGES, 5 + k / EDGES);
  }

  /** The slot of a host address, if it is one of this network's ({@code fd6e:7073:1::N}). */
  public Optional<Integer> slotOf(Ipv6Address a) {
    Ipv6Address base = address(0);
    if (a.high() != base.high() || a.low() < 1 || a.low() > capacity()) {
      return Optional.empty();
    }
    return Optional.of((int) a.low());
  }
}
