package org.netpubsub.network.pleroma;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.topology.Hop;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SpanningTree;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * PLEROMA's configurator (Algorithm 1): keeps advertisements and subscriptions on a spanning tree
 * of the switches and, for every publisher–subscriber pair whose cells overlap, the content flows
 * along their tree path that forward exactly the overlap {@code DZ(p) ∩ DZ(s)} towards the
 * subscriber ({@code flowAddition}); the last switch rewrites the destination to the subscriber.
 * Unadvertising and unsubscribing withdraw the same requirements, which deletes or downgrades flows
 * without touching what the remaining pairs need (Figure 5).
 *
 * <p>The tree is the topology's central shortest-path tree ({@link Topology#spanningTree}); when
 * the topology changes, {@link #rebuiltOn} replays every request on the new tree. Not thread-safe:
 * one owner applies requests in order.
 */
public final class Configurator {
  private final Topology topology;
  private final Map<Ipv6Address, Host> hosts; // hashed: every pair looks up both of its hosts
  private final SpanningTree tree; // null: no switch yet
  private final Map<String, Advertisement> advertisements = new LinkedHashMap<>();
  private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
  private final SortedMap<Long, ContentTable> tables = new TreeMap<>(SwitchPort.DPID_ORDER);
  // The tree is fixed for this configurator's life, so each switch pair's path is found once, and
  // each publisher–subscriber route too.
  private final Map<SwitchPair, Optional<List<Requirement>>> treePaths = new HashMap<>();
  private final Map<SubscriberKey, RoutesTo> routes = new HashMap<>();
  // One object per distinct requirement, numbered: tables and tallies compare them by identity.
  private final Map<RequirementKey, Requirement> requirements = new HashMap<>();
  // Per required dz, the paths that need each requirement; a table hears only 0 ↔ some changes.
  private final Map<Dz, PathCounts> pathCounts = new HashMap<>();
  // Each standing subscription's pairs as its addition counted them. Its withdrawal removes the
  // same requirements, so it pairs again only if an advertisement changed in between.
  private final Map<String, Paired> paired = new HashMap<>();
  private long advertisementChanges;

  private Configurator(Topology topology) {
    this.topology = topology;
    this.hosts = new HashMap<>(topology.hosts());
    this.tree = topology.spanningTree().orElse(null);
    for (long dpid : topology.switches()) {
      tables.put(dpid, new ContentTable());
    }
  }

  /** A configurator with no requests on the topology's central tree. */
  public static Configurator on(Topology topology) {
    return new Configurator(topology);
  }

  /** A configurator on {@code next} holding the same requests (advertisements first). */
  public Configurator rebuiltOn(Topology next) {
    Configurator c = new Configurator(next);
    advertisements.values().forEach(a -> c.advertise(a, true));
    subscriptions.values().forEach(s -> c.subscribe(s, true));
    return c;
  }

  /**
   * A configurator on {@code topology} holding these standing requests (advertisements first), as
   * {@link #rebuiltOn} would: a request whose host has gone keeps its place without paths.
   */
  public static Configurator restored(
      Topology topology,
      Collection<Advertisement> advertisements,
      Collection<Subscription> subscriptions) {
    Configurator c = new Configurator(topology);
    advertisements.forEach(a -> c.advertise(a, true));
    subscriptions.forEach(s -> c.subscribe(s, true));
    return c;
  }

  public Topology topology() {
    return topology;
  }

  public Optional<SpanningTree> tree() {
    return Optional.ofNullable(tree);
  }

  /**
   * Algorithm 1 lines 1–6: records the advertisement and sets up flows from its publisher to every
   * subscriber whose cells overlap. IllegalArgumentException for a duplicate id or unknown host.
   */
  public ConfigurationDelta advertise(Advertisement a) {
    return advertise(a, false);
  }

  /** Algorithm 1 lines 7–12: the same from the subscriber's side. */
  public ConfigurationDelta subscribe(Subscription s) {
    return subscribe(s, false);
  }

  /** Withdraws an advertisement and the paths it had. IllegalArgumentException if unknown. */
  public ConfigurationDelta unadvertise(String id) {
    Advertisement a = advertisements.remove(id);
    if (a == null) {
      throw new IllegalArgumentException("no advertisement " + id);
    }
    advertisementChanges++;
    Pairing pairing = new Pairing();
    for (Subscription s : subscriptions.values()) {
      pairing.pair(a, s, routesTo(s));
    }
    return pairing.remove();
  }

  /** Withdraws a subscription and the paths it had. IllegalArgumentException if unknown. */
  public ConfigurationDelta unsubscribe(String id) {
    Subscription s = subscriptions.remove(id);
    if (s == null) {
      throw new IllegalArgumentException("no subscription " + id);
    }
    Paired before = paired.remove(id);
    if (before != null && before.advertisementChanges == advertisementChanges) {
      return new Pairing(before).remove();
    }
    Pairing pairing = new Pairing();
    RoutesTo to = routesTo(s);
    for (Advertisement a : advertisements.values()) {
      pairing.pair(a, s, to);
    }
    return pairing.remove();
  }

  public Map<String, Advertisement> advertisements() {
    return Collections.unmodifiableMap(advertisements);
  }

  public Map<String, Subscription> subscriptions() {
    return Collections.unmodifiableMap(subscriptions);
  }

  /** One switch's content flows (the CP-config of PLEROMA §IV-B); empty for an unknown switch. */
  public SortedMap<Dz, SortedSet<EventEgress>> table(long dpid) {
    ContentTable t = tables.get(dpid);
    return t == null ? Collections.emptySortedMap() : t.flows();
  }

  /** One switch's content flows as OpenFlow entries. */
  public List<FlowEntry> flows(long dpid) {
    return ContentFlows.entries(table(dpid));
  }

  /** The number of content flows on every switch together. */
  public int flowCount() {
    return tables.values().stream().mapToInt(ContentTable::size).sum();
  }

  // ---- Algorithm 1 ----

  private ConfigurationDelta advertise(Advertisement a, boolean replay) {
    checkNew(a.id(), a.host(), replay);
    advertisements.put(a.id(), a);
    advertisementChanges++;
    Pairing pairing = new Pairing();
    for (Subscription s : subscriptions.values()) {
      pairing.pair(a, s, routesTo(s));
    }
    return pairing.add();
  }

  private ConfigurationDelta subscribe(Subscription s, boolean replay) {
    checkNew(s.id(), s.host(), replay);
    subscriptions.put(s.id(), s);
    Pairing pairing = new Pairing();
    RoutesTo to = routesTo(s);
    for (Advertisement a : advertisements.values()) {
      pairing.pair(a, s, to);
    }
    paired.put(s.id(), pairing.paired());
    return pairing.add();
  }

  /** A replayed request keeps its place even if its host has gone (it gets no paths then). */
  private void checkNew(String id, Ipv6Address host, boolean replay) {
    if (advertisements.containsKey(id) || subscriptions.containsKey(id)) {
      throw new IllegalArgumentException("a request with id " + id + " exists");
    }
    if (!replay && !hosts.containsKey(host)) {
      throw new IllegalArgumentException("host " + host + " is not known");
    }
  }

  /**
   * flowAddition (or its reverse) for the overlaps of the pairs of one request. Paths of one
   * request share switches (a subscriber's paths from several publishers merge on the tree towards
   * it), so the requirements are first counted per overlap, and each table then hears every
   * distinct requirement once with its multiplicity. The tables end as if each pair had gone on its
   * own, and of one dz's requirements on one table the first-seen comes first as before.
   */
  private final class Pairing {
    private final ConfigurationDelta delta = new ConfigurationDelta();
    private final List<Tally> byOverlap;

    Pairing() {
      byOverlap = new ArrayList<>(1);
    }

    /** The pairs counted before (tallies are not changed once paired). */
    Pairing(Paired before) {
      byOverlap = before.byOverlap;
      delta.countPaths(before.paths, before.unreachablePaths);
    }

    /** What was paired, to be withdrawn later as it is. */
    Paired paired() {
      return new Paired(byOverlap, delta.paths(), delta.unreachablePaths(), advertisementChanges);
    }

    void pair(Advertisement a, Subscription s, RoutesTo to) {
      DzSet overlap = a.cells().intersect(s.cells());
      if (overlap.isEmpty()) {
        return;
      }
      Optional<List<Requirement>> route = to.from(a.host(), s);
      delta.countPath(route.isPresent());
      if (route.isEmpty()) {
        return;
      }
      Tally tally = null;
      for (Tally t : byOverlap) {
        if (t.overlap == overlap || t.overlap.equals(overlap)) {
          tally = t;
          break;
        }
      }
      if (tally == null) {
        tally = new Tally(overlap);
        byOverlap.add(tally);
      }
      List<Requirement> requirements = route.get();
      for (int i = 0, n = requirements.size(); i < n; i++) { // indexed: no iterator per pair
        tally.count(requirements.get(i));
      }
    }

    ConfigurationDelta add() {
      for (Tally t : byOverlap) {
        for (Dz dz : t.overlap) {
          PathCounts counts = pathCounts.computeIfAbsent(dz, d -> new PathCounts());
          for (int i = 0; i < t.size; i++) {
            Requirement r = t.requirements[i];
            int n = t.counts[i];
            if (counts.add(r.id(), n) > 0) {
              delta.count(FlowAdditionCase.COVERED_BY_EXISTING, n);
              continue;
            }
            ContentTable.Addition added = r.table().add(dz, r.egress());
            added.cases().forEach(delta::count);
            delta.count(FlowAdditionCase.COVERED_BY_EXISTING, n - 1);
            delta.record(r.dpid(), added.changes());
          }
        }
      }
      return delta;
    }

    ConfigurationDelta remove() {
      for (Tally t : byOverlap) {
        for (Dz dz : t.overlap) {
          PathCounts counts = pathCounts.get(dz);
          for (int i = 0; i < t.size; i++) {
            Requirement r = t.requirements[i];
            int left = counts == null ? -1 : counts.remove(r.id(), t.counts[i]);
            if (left < 0) {
              throw new IllegalStateException("not required: " + dz + " → " + r);
            }
            if (left == 0) {
              delta.record(r.dpid(), r.table().remove(dz, r.egress()));
            }
          }
          if (counts.isEmpty()) {
            pathCounts.remove(dz);
          }
        }
      }
      return delta;
    }
  }

  /**
   * The requirements of the paths with one overlap, in first-seen order with their multiplicities
   * (a few dozen at most: searched by identity, as equal requirements are one object).
   */
  private static final class Tally {
    final DzSet overlap;
    Requirement[] requirements = new Requirement[16];
    int[] counts = new int[16];
    int size;

    Tally(DzSet overlap) {
      this.overlap = overlap;
    }

    void count(Requirement r) {
      for (int i = 0; i < size; i++) {
        if (requirements[i] == r) {
          counts[i]++;
          return;
        }
      }
      if (size == requirements.length) {
        requirements = Arrays.copyOf(requirements, size * 2);
        counts = Arrays.copyOf(counts, size * 2);
      }
      requirements[size] = r;
      counts[size++] = 1;
    }
  }

  /** A subscription's pairs as counted, while {@link #advertisementChanges} stays the same. */
  private record Paired(
      List<Tally> byOverlap, int paths, int unreachablePaths, long advertisementChanges) {}

  /** One switch's part of a path: events leave it by this egress. */
  private record Requirement(long dpid, ContentTable table, EventEgress egress, int id) {}

  private record RequirementKey(long dpid, EventEgress egress) {}

  private record SwitchPair(long from, long to) {}

  /** Looked up for every request, so equals and hashCode are written out (see Ipv6Address). */
  private record SubscriberKey(Ipv6Address host, int udpPort) {
    @Override
    public boolean equals(Object o) {
      return o instanceof SubscriberKey k && udpPort == k.udpPort && host.equals(k.host);
    }

    @Override
    public int hashCode() {
      return 31 * host.hashCode() + udpPort;
    }
  }

  /** The routes to one subscriber (host and UDP port), made on first use. */
  private RoutesTo routesTo(Subscription s) {
    return routes.computeIfAbsent(new SubscriberKey(s.host(), s.udpPort()), k -> new RoutesTo());
  }

  /**
   * The routes from each publisher host to one subscriber. Publishers are few and a request pairs
   * with all of them, so the subscriber is looked up once per request and its publishers are
   * scanned, by identity first (advertisements keep their host objects).
   */
  private final class RoutesTo {
    private Ipv6Address[] publishers = new Ipv6Address[4];
    private List<Optional<List<Requirement>>> routes = new ArrayList<>(4);

    /**
     * The egresses along the tree path from the publisher's switch to the subscriber's, ending at
     * the subscriber's port with the rewrite; empty if a host is gone, if the tree does not connect
     * them, or if both sit behind the same port (a switch never sends a packet back where it came
     * from).
     */
    Optional<List<Requirement>> from(Ipv6Address publisher, Subscription s) {
      int n = routes.size();
      for (int i = 0; i < n; i++) {
        if (publishers[i] == publisher) {
          return routes.get(i);
        }
      }
      for (int i = 0; i < n; i++) {
        if (publishers[i].equals(publisher)) {
          return routes.get(i);
        }
      }
      if (n == publishers.length) {
        publishers = Arrays.copyOf(publishers, n * 2);
      }
      publishers[n] = publisher;
      routes.add(findRoute(publisher, s));
      return routes.get(n);
    }
  }

  private Optional<List<Requirement>> findRoute(Ipv6Address publisher, Subscription s) {
    Host publisherHost = hosts.get(publisher);
    Host h = hosts.get(s.host());
    if (publisherHost == null || h == null) {
      return Optional.empty();
    }
    SwitchPort from = publisherHost.attachment();
    SwitchPort to = h.attachment();
    if (from.equals(to)) {
      return Optional.empty();
    }
    Optional<List<Requirement>> switchHops =
        treePaths.computeIfAbsent(new SwitchPair(from.dpid(), to.dpid()), this::treePath);
    if (switchHops.isEmpty()) {
      return Optional.empty();
    }
    List<Requirement> out = new ArrayList<>(switchHops.get().size() + 1);
    out.addAll(switchHops.get());
    LastHop last = new LastHop(h.address(), h.mac().value(), s.udpPort());
    out.add(requirement(to.dpid(), EventEgress.toSubscriber(to.port(), last)));
    return Optional.of(List.copyOf(out));
  }

  /** One switch's requirement; equal requirements are one object (see {@link #requirements}). */
  private Requirement requirement(long dpid, EventEgress egress) {
    return requirements.computeIfAbsent(
        new RequirementKey(dpid, egress),
        k -> new Requirement(dpid, tables.get(dpid), egress, requirements.size()));
  }

  /**
   * The requirements along the tree from one switch to another, before the last hop; empty if the
   * tree does not connect them.
   */
  private Optional<List<Requirement>> treePath(SwitchPair p) {
    if (tree == null || !tree.contains(p.from()) || !tree.contains(p.to())) {
      return Optional.empty();
    }
    List<Requirement> out = new ArrayList<>();
    for (Hop hop : tree.path(p.from(), p.to()).hops()) {
      long dpid = hop.from().dpid();
      out.add(requirement(dpid, EventEgress.towardsSwitch(hop.from().port())));
    }
    return Optional.of(List.copyOf(out));
  }
}
