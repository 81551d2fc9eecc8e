package org.netpubsub.network.camus;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.pipeline.PipelineDiff;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Routing on subscriptions over a whole fabric (Camus §4): the hosts' subscriptions, the filter
 * sets of a policy ({@link FilterSets}), and per switch the compilation of its local rules — the
 * edge layer exact, the layers above discretized by α (§4: the ToR keeps the original filters, the
 * approximation aggregates filters higher up). {@link #update} is the controller's path for a
 * changed subscription: it recompiles, incrementally, only the switches whose filter sets hold the
 * host and returns their table diffs.
 *
 * <p>Mutable: each update moves the switches' compilations on (earlier {@link Compilation}s are
 * consumed). Not thread-safe: one owner applies changes in order.
 */
public final class CamusRouting {
  /** Told about each switch as soon as it is (re)compiled, so that callers can time switches. */
  @FunctionalInterface
  public interface Observer {
    Observer NONE = (dpid, c) -> {};

    void compiled(long dpid, Compilation compilation);
  }

  private final FilterSets sets;
  private final MessageSpec spec;
  private final long alpha;
  private final List<Map<String, PacketSubscription>> byHost = new ArrayList<>();
  private final Map<String, Integer> owner = new HashMap<>();
  private final SortedMap<Long, Compilation> compilations = new TreeMap<>(SwitchPort.DPID_ORDER);

  private CamusRouting(FilterSets sets, MessageSpec spec, long alpha) {
    this.sets = sets;
    this.spec = spec;
    this.alpha = alpha;
    new CompileOptions(alpha); // checks α
    for (int i = 0; i < sets.hierarchy().hosts().size(); i++) {
      byHost.add(new LinkedHashMap<>());
    }
  }

  /**
   * Compiles every switch; see {@link #compile(Hierarchy, MessageSpec, RoutingPolicy, long, Map,
   * Observer)}.
   */
  public static CamusRouting compile(
      Hierarchy hierarchy,
      MessageSpec spec,
      RoutingPolicy policy,
      long alpha,
      Map<Ipv6Address, ? extends Collection<PacketSubscription>> subscriptions) {
    return compile(hierarchy, spec, policy, alpha, subscriptions, Observer.NONE);
  }

  /**
   * Algorithm 1 under {@code policy}, then every switch's local rules compiled, bottom up. Hosts
   * without an entry subscribe to nothing. IllegalArgumentException for an unknown host, an id used
   * twice or a filter the spec cannot compile.
   */
  public static CamusRouting compile(
      Hierarchy hierarchy,
      MessageSpec spec,
      RoutingPolicy policy,
      long alpha,
      Map<Ipv6Address, ? extends Collection<PacketSubscription>> subscriptions,
      Observer observer) {
    CamusRouting r = new CamusRouting(FilterSets.compute(hierarchy, policy), spec, alpha);
    for (var e : subscriptions.entrySet()) {
      int h = hierarchy.hostIndex(e.getKey());
      for (PacketSubscription s : e.getValue()) {
        r.claim(s.id(), h);
        r.byHost.get(h).put(s.id(), s);
      }
    }
    for (long dpid : hierarchy.bottomUp()) {
      Compilation c = RuleCompiler.compile(spec, r.localRules(dpid), r.options(dpid));
      r.compilations.put(dpid, c);
      observer.compiled(dpid, c);
    }
    return r;
  }

  /** {@link #update(Ipv6Address, List, List, Observer)} without an observer. */
  public RoutingUpdate update(
      Ipv6Address host, List<PacketSubscription> added, List<String> removed) {
    return update(host, added, removed, Observer.NONE);
  }

  /**
   * Host {@code host} withdraws the subscriptions {@code removed} (ids) and subscribes {@code
   * added} (an id it already holds is replaced). Recompiles, from the previous compilations, only
   * the switches whose filter sets hold the host — under MR its edge switch and the switches above
   * it, under TR every switch — and returns their diffs. Checks everything first: on
   * IllegalArgumentException (unknown host or id, an id of another host, a filter the spec cannot
   * compile) nothing has changed.
   */
  public RoutingUpdate update(
      Ipv6Address host, List<PacketSubscription> added, List<String> removed, Observer observer) {
    int h = sets.hierarchy().hostIndex(host);
    Map<String, PacketSubscription> mine = byHost.get(h);
    Set<String> gone = new HashSet<>();
    for (String id : removed) {
      if (!mine.containsKey(id) || !gone.add(id)) {
        throw new IllegalArgumentException("host " + host + " has no subscription " + id);
      }
    }
    Set<String> fresh = new HashSet<>();
    List<Rule> check = new ArrayList<>();
    for (PacketSubscription s : added) {
      Integer o = owner.get(s.id());
      if (!fresh.add(s.id()) || (o != null && o != h) || s.id().equals(LocalRules.TRUE_UP_ID)) {
        throw new IllegalArgumentException("subscription id " + s.id() + " is taken");
      }
      check.add(s.forward(LocalRules.UP));
    }
    RuleCompiler.compile(spec, check, CompileOptions.EXACT); // a bad filter fails here, first
    for (String id : removed) {
      mine.remove(id);
      owner.remove(id);
    }
    for (PacketSubscription s : added) {
      mine.put(s.id(), s);
      owner.put(s.id(), h);
    }
    SortedMap<Long, PipelineDiff> diffs = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (var e : sets.actionsFor(h).entrySet()) {
      long dpid = e.getKey();
      List<Rule> rules = added.stream().map(s -> s.forward(e.getValue())).toList();
      Compilation c = RuleCompiler.update(compilations.get(dpid), rules, removed);
      compilations.put(dpid, c);
      diffs.put(dpid, c.diff());
      observer.compiled(dpid, c);
    }
    return new RoutingUpdate(host, diffs);
  }

  private void claim(String id, int host) {
    if (id.equals(LocalRules.TRUE_UP_ID) || owner.putIfAbsent(id, host) != null) {
      throw new IllegalArgumentException("subscription id " + id + " is used twice");
    }
  }

  /** The local rules of a switch as the filter sets and subscriptions give them now. */
  public List<Rule> localRules(long dpid) {
    return LocalRules.of(sets, dpid, spec.schema(), i -> byHost.get(i).values());
  }

  /**
   * Exact at the edge (layer 0), α above; state and group ids from content, so that the switches'
   * tables do not depend on the order subscriptions came in (a restarted controller rewrites none).
   */
  public CompileOptions options(long dpid) {
    return (sets.hierarchy().layerOf(dpid) == 0 ? CompileOptions.EXACT : new CompileOptions(alpha))
        .withContentIds();
  }

  /** The latest compilation of a switch. */
  public Compilation compilation(long dpid) {
    Compilation c = compilations.get(dpid);
    if (c == null) {
      throw new IllegalArgumentException("no switch " + Long.toUnsignedString(dpid));
    }
    return c;
  }

  /** Every switch's latest compilation, by dpid. */
  public SortedMap<Long, Compilation> compilations() {
    return Collections.unmodifiableSortedMap(compilations);
  }

  /** A host's subscriptions, in the order subscribed. */
  public List<PacketSubscription> subscriptions(Ipv6Address host) {
    return List.copyOf(byHost.get(sets.hierarchy().hostIndex(host)).values());
  }

  /** Every host's subscriptions (hosts without any left out). */
  public Map<Ipv6Address, List<PacketSubscription>> subscriptions() {
    Map<Ipv6Address, List<PacketSubscription>> out = new LinkedHashMap<>();
    for (int i = 0; i < byHost.size(); i++) {
      if (!byHost.get(i).isEmpty()) {
        out.put(sets.hierarchy().hosts().get(i), List.copyOf(byHost.get(i).values()));
      }
    }
    return out;
  }

  public FilterSets sets() {
    return sets;
  }

  public Hierarchy hierarchy() {
    return sets.hierarchy();
  }

  public RoutingPolicy policy() {
    return sets.policy();
  }

  public MessageSpec spec() {
    return spec;
  }

  public long alpha() {
    return alpha;
  }
}
