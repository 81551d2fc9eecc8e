package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * EMD's network invariants checker for flow-mods (Algorithm 2, lines 18–27): keeps, per
 * destination, which port each switch forwards its traffic to, and refuses an app's change that
 * would make that traffic loop or vanish. Accepting a change applies it; refusing leaves the state
 * as it was.
 *
 * <p>A switch's traffic is <em>delivered</em> if following the rules from it reaches, without
 * passing a switch twice, a port with no link and a known host inside the destination. A change at
 * switch S is accepted if, afterwards, the traffic of S and of every switch whose traffic passes
 * through S is delivered. Only switches with a rule send traffic for a destination, so a network
 * without rules is fine, and rules are installed from the destination outwards. Traffic that does
 * not pass S is not the change's fault: after a link fails, the checker refuses changes that keep
 * traffic broken, but accepts the repairs one by one.
 *
 * <p>A rule's traffic is followed from S only: if S's traffic is delivered, so is that of every
 * switch upstream (its path ends with S's path, and a shared switch would be a loop through S).
 * Removing S's rule is refused if any rule still leads into S. Cost: one path per change.
 *
 * <p>In a network whose table misses go to the controller (reactive forwarding), a switch without a
 * rule is no black hole: its traffic reaches the controller, which installs the next hop (as a
 * learning switch does, hop by hop). There only loops and ports that lead nowhere are refused.
 *
 * <p>Destinations are independent keys (overlapping prefixes are not related). Not thread-safe.
 */
public final class InvariantChecker {
  private Topology topology;
  private Map<SwitchPort, List<Host>> hostsAt;
  private final Map<MaskedIpv6, ForwardingTree> trees = new HashMap<>();
  private final boolean missesReachController;

  /** A checker for a network whose table misses drop (proactive forwarding). */
  public InvariantChecker(Topology topology) {
    this(topology, false);
  }

  /**
   * @param missesReachController whether a switch without a rule sends the traffic to the
   *     controller (then a missing rule is no black hole)
   */
  public InvariantChecker(Topology topology, boolean missesReachController) {
    this.missesReachController = missesReachController;
    setTopology(topology);
  }

  /**
   * Checks a change and, if no invariant breaks, applies it (the caller then passes the flow-mod on
   * to the switch).
   */
  public InvariantVerdict check(RouteChange change) {
    ForwardingTree tree = trees.get(change.destination());
    InvariantVerdict v;
    if (change.outPort().isPresent()) {
      v = follow(tree, change.destination(), change.dpid(), change.outPort().getAsLong());
    } else {
      Set<Long> upstream = tree == null ? Set.of() : tree.upstream(change.dpid());
      v =
          upstream.isEmpty() || missesReachController
              ? InvariantVerdict.ACCEPT
              : InvariantVerdict.blackHole(
                  "switches "
                      + hex(upstream)
                      + " forward traffic for "
                      + change.destination()
                      + " into "
                      + Long.toHexString(change.dpid()));
    }
    if (v.accepted()) {
      apply(change);
    }
    return v;
  }

  /**
   * Applies a change without checking it: for routes the controller computed itself (its own
   * forwarding), which apps' changes are then checked against.
   */
  public void install(RouteChange change) {
    apply(change);
  }

  private void apply(RouteChange change) {
    ForwardingTree tree = trees.computeIfAbsent(change.destination(), d -> new ForwardingTree());
    Long port = change.outPort().isPresent() ? change.outPort().getAsLong() : null;
    tree.set(change.dpid(), port, this::nextSwitch);
    if (tree.isEmpty()) {
      trees.remove(change.destination());
    }
  }

  /**
   * Follows traffic for {@code destination} from {@code start}, which outputs to {@code port} (its
   * rule, or the one proposed), then by the rules in {@code tree}.
   */
  private InvariantVerdict follow(
      ForwardingTree tree, MaskedIpv6 destination, long start, long port) {
    Set<Long> visited = new HashSet<>();
    visited.add(start);
    long at = start;
    long out = port;
    while (true) {
      SwitchPort sp = new SwitchPort(at, out);
      Link link = topology.linkAt(sp).orElse(null);
      if (link == null) {
        return delivers(sp, destination)
            ? InvariantVerdict.ACCEPT
            : InvariantVerdict.blackHole(
                "port " + sp + " has no link and no host in " + destination);
      }
      long next = link.peer(sp).dpid();
      if (!visited.add(next)) {
        return InvariantVerdict.loop(
            "traffic for " + destination + " comes back to " + Long.toHexString(next));
      }
      Long nextOut = tree == null ? null : tree.outPort(next);
      if (nextOut == null && missesReachController) {
        return InvariantVerdict.ACCEPT; // the next switch asks the controller
      }
      if (nextOut == null) {
        return InvariantVerdict.blackHole(
            Long.toHexString(next) + " has no rule for " + destination);
      }
      at = next;
      out = nextOut;
    }
  }

  private boolean delivers(SwitchPort port, MaskedIpv6 destination) {
    for (Host h : hostsAt.getOrDefault(port, List.of())) {
      if (destination.matches(h.address())) {
        return true;
      }
    }
    return false;
  }

  private Long nextSwitch(long dpid, long port) {
    SwitchPort sp = new SwitchPort(dpid, port);
    Long next = topology.linkAt(sp).map(l -> l.peer(sp).dpid()).orElse(null);
    return next == null || next == dpid ? null : next;
  }

  // ---- topology ----

  public Topology topology() {
    return topology;
  }

  /** The network changed (discovery): rules stay, where their traffic goes may not. */
  public void replaceTopology(Topology t) {
    setTopology(t);
  }

  public void linkDown(Link link) {
    setTopology(topology.removeLink(link));
  }

  public void linkUp(Link link) {
    setTopology(topology.addLink(link));
  }

  private void setTopology(Topology t) {
    if (t == null) {
      throw new IllegalArgumentException("topology is required");
    }
    topology = t;
    hostsAt = new HashMap<>();
    for (Host h : t.hosts().values()) {
      hostsAt.computeIfAbsent(h.attachment(), p -> new ArrayList<>()).add(h);
    }
    trees.values().forEach(tree -> tree.relink(this::nextSwitch));
  }

  // ---- queries ----

  /** The destinations with at least one rule. */
  public Set<MaskedIpv6> destinations() {
    return Collections.unmodifiableSet(new HashSet<>(trees.keySet()));
  }

  /** Switch → output port of the accepted rules for a destination. */
  public SortedMap<Long, Long> rules(MaskedIpv6 destination) {
    SortedMap<Long, Long> out = new TreeMap<>(SwitchPort.DPID_ORDER);
    ForwardingTree tree = trees.get(destination);
    if (tree != null) {
      out.putAll(tree.rules());
    }
    return out;
  }

  /**
   * The switches with a rule for the destination whose traffic loops or is black-holed now (after
   * links failed). For diagnostics: one path per switch.
   */
  public SortedSet<Long> brokenSwitches(MaskedIpv6 destination) {
    SortedSet<Long> out = new TreeSet<>(SwitchPort.DPID_ORDER);
    ForwardingTree tree = trees.get(destination);
    if (tree != null) {
      tree.rules()
          .forEach(
              (dpid, port) -> {
                if (!follow(tree, destination, dpid, port).accepted()) {
                  out.add(dpid);
                }
              });
    }
    return out;
  }

  private static String hex(Set<Long> dpids) {
    SortedSet<Long> sorted = new TreeSet<>(SwitchPort.DPID_ORDER);
    sorted.addAll(dpids);
    return sorted.stream().map(Long::toHexString).toList().toString();
  }
}
