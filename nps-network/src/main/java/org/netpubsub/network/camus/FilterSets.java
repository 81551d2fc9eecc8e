package org.netpubsub.network.camus;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Camus's Algorithm 1: the filter set F_p^s of every switch s and port p, held as the set of hosts
 * whose subscriptions it unites — F_p^s = ∪ {Subscriptions(h) : h ∈ H_p^s} — because union commutes
 * with the algorithm's steps, and a host set tells at once which switches a host's change touches.
 * Lines 1–13: host ports get their host; bottom up, each switch's down sets are united into the
 * matching down port of each up neighbour. Lines 14–23: the logical up port.
 *
 * <p><b>MR</b>: F_up^s = {true} for every switch with up ports.
 *
 * <p><b>TR, corrected.</b> The paper sets F_up^src to the union of F_p^dst over the down ports p ≠
 * q of the first up neighbour dst. In a three-layer fat tree that is wrong for an edge switch: dst
 * is an aggregation switch whose down ports reach only its own pod, so a message wanted only in
 * another pod would never leave the edge. The set must also hold what dst itself sends up, so we
 * compute it top down: F_up^src = F_up^dst ∪ ∪_{p ∈ down(dst), p ≠ q} F_p^dst, with F_up = ∅ at the
 * top. By induction F_up^s is exactly the hosts not below s; because every up neighbour of a switch
 * reaches the same hosts ({@link Hierarchy} condition 3), the "first" up link gives the same set as
 * any other, so it does not matter which physical up port a message takes.
 */
public final class FilterSets {
  private final Hierarchy hierarchy;
  private final RoutingPolicy policy;
  private final Map<SwitchPort, BitSet> down = new HashMap<>();
  private final Map<Long, BitSet> up = new HashMap<>();

  private FilterSets(Hierarchy hierarchy, RoutingPolicy policy) {
    this.hierarchy = hierarchy;
    this.policy = policy;
  }

  /** Algorithm 1 on a hierarchy under a policy. */
  public static FilterSets compute(Hierarchy hierarchy, RoutingPolicy policy) {
    FilterSets f = new FilterSets(hierarchy, policy);
    f.run();
    return f;
  }

  private void run() {
    // lines 1–5: every down port empty, then each host at its access port
    for (long s : hierarchy.bottomUp()) {
      for (long p : hierarchy.downPorts(s)) {
        SwitchPort sp = new SwitchPort(s, p);
        down.put(sp, hierarchy.hostsAt(sp));
      }
    }
    // lines 6–13: bottom up, F^src = ∪ F_p^src over down(src), into each up neighbour's port q
    for (long src : hierarchy.bottomUp()) {
      BitSet all = new BitSet();
      for (long p : hierarchy.downPorts(src)) {
        all.or(down.get(new SwitchPort(src, p)));
      }
      for (long p : hierarchy.upPorts(src)) {
        down.get(hierarchy.peer(new SwitchPort(src, p))).or(all);
      }
    }
    if (policy == RoutingPolicy.MR) {
      return; // lines 14–16: F_up = {true}, see upIsTrue
    }
    // lines 17–23, corrected (see the class comment): top down through the first up link
    List<Long> order = hierarchy.bottomUp();
    for (int i = order.size() - 1; i >= 0; i--) {
      long src = order.get(i);
      BitSet set = new BitSet();
      if (!hierarchy.upPorts(src).isEmpty()) {
        SwitchPort q = hierarchy.peer(new SwitchPort(src, hierarchy.upPorts(src).first()));
        set.or(up.get(q.dpid()));
        for (long p : hierarchy.downPorts(q.dpid())) {
          if (p != q.port()) {
            set.or(down.get(new SwitchPort(q.dpid(), p)));
          }
        }
      }
      up.put(src, set);
    }
  }

  public Hierarchy hierarchy() {
    return hierarchy;
  }

  public RoutingPolicy policy() {
    return policy;
  }

  /** H_p^s of a down port: the hosts whose subscriptions F_p^s unites. */
  public BitSet down(SwitchPort downPort) {
    BitSet b = down.get(downPort);
    if (b == null) {
      throw new IllegalArgumentException(downPort + " is no down port");
    }
    return (BitSet) b.clone();
  }

  /** Whether F_up^s is {true}: MR, and the switch has up ports. */
  public boolean upIsTrue(long dpid) {
    return policy == RoutingPolicy.MR && !hierarchy.upPorts(dpid).isEmpty();
  }

  /** H_up^s under TR (empty at the top); empty under MR, where F_up^s is {true} instead. */
  public BitSet up(long dpid) {
    hierarchy.upPorts(dpid); // checks the switch
    BitSet b = up.get(dpid);
    return b == null ? new BitSet() : (BitSet) b.clone();
  }

  /**
   * Where host {@code host}'s subscriptions are in the filter sets: per switch the action that
   * forwards them (a down port, or {@link LocalRules#UP}). These are the switches a change of the
   * host's subscriptions recompiles.
   */
  public SortedMap<Long, Integer> actionsFor(int host) {
    SortedMap<Long, Integer> out = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (long s : hierarchy.bottomUp()) {
      for (long p : hierarchy.downPorts(s)) {
        if (down.get(new SwitchPort(s, p)).get(host)) {
          out.put(s, LocalRules.action(p));
        }
      }
      BitSet u = up.get(s);
      if (u != null && u.get(host)) {
        out.put(s, LocalRules.UP);
      }
    }
    return out;
  }
}
