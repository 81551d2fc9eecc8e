package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.network.nbi.InvariantVerdict.Outcome;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The invariant checker the obvious way: after each proposed change, rebuild the destination's
 * whole forwarding graph and walk it from every switch with a rule; refuse if the traffic of any
 * switch that passes the changed one loops or ends anywhere but a host in the destination.
 */
final class NaiveInvariantChecker {
  Topology topology;
  final Map<MaskedIpv6, Map<Long, Long>> rules = new HashMap<>();

  NaiveInvariantChecker(Topology topology) {
    this.topology = topology;
  }

  /** Where a switch's rule sends traffic. */
  sealed interface Node {}

  record Next(long dpid) implements Node {}

  record Delivered() implements Node {}

  record Dead() implements Node {}

  /** The outcome of following traffic from one switch, and every switch it passed. */
  record Walk(Outcome outcome, List<Long> passed) {}

  Outcome check(RouteChange c) {
    Map<Long, Long> after = new TreeMap<>(rules.getOrDefault(c.destination(), Map.of()));
    if (c.outPort().isPresent()) {
      after.put(c.dpid(), c.outPort().getAsLong());
    } else {
      after.remove(c.dpid());
    }
    Map<Long, Walk> walks = walkAll(graph(after, c.destination()));
    for (Walk w : walks.values()) {
      if (w.passed().contains(c.dpid()) && w.outcome() != Outcome.ACCEPT) {
        return w.outcome();
      }
    }
    rules.put(c.destination(), after);
    return Outcome.ACCEPT;
  }

  Set<Long> broken(MaskedIpv6 destination) {
    Set<Long> out = new TreeSet<>(SwitchPort.DPID_ORDER); // ascending unsigned, as the checker
    walkAll(graph(rules.getOrDefault(destination, Map.of()), destination))
        .forEach(
            (dpid, w) -> {
              if (w.outcome() != Outcome.ACCEPT) {
                out.add(dpid);
              }
            });
    return out;
  }

  Map<Long, Long> rules(MaskedIpv6 destination) {
    return rules.getOrDefault(destination, Map.of());
  }

  private Map<Long, Node> graph(Map<Long, Long> rules, MaskedIpv6 destination) {
    Map<Long, Node> g = new HashMap<>();
    rules.forEach(
        (dpid, port) -> {
          SwitchPort sp = SwitchPort.of(dpid, port);
          Link l = topology.linkAt(sp).orElse(null);
          if (l != null) {
            g.put(dpid, new Next(l.peer(sp).dpid()));
          } else {
            boolean host = false;
            for (Host h : topology.hosts().values()) {
              host |= h.attachment().equals(sp) && destination.matches(h.address());
            }
            g.put(dpid, host ? new Delivered() : new Dead());
          }
        });
    return g;
  }

  private static Map<Long, Walk> walkAll(Map<Long, Node> g) {
    Map<Long, Walk> out = new TreeMap<>();
    for (long start : g.keySet()) {
      List<Long> passed = new ArrayList<>();
      long at = start;
      Outcome outcome;
      while (true) {
        if (passed.contains(at)) {
          outcome = Outcome.LOOP;
          break;
        }
        passed.add(at);
        Node n = g.get(at);
        if (n == null || n instanceof Dead) {
          outcome = Outcome.BLACK_HOLE;
          break;
        }
        if (n instanceof Delivered) {
          outcome = Outcome.ACCEPT;
          break;
        }
        at = ((Next) n).dpid();
      }
      out.put(start, new Walk(outcome, passed));
    }
    return out;
  }
}
