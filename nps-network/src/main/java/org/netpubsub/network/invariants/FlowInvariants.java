package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.Pipeline;
import org.netpubsub.network.openflow.PipelinePolicy;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The invariant checker of the flow service (EMD §4.3, VeriFlow's incremental check): it keeps an
 * index of every switch's flows and groups ({@link SwitchTables}) and checks a batch's final state
 * before the batch reaches a switch. A batch comes as its net {@link Change} per switch, applied to
 * the index and walked; {@link #offer} keeps it if it breaks nothing and undoes it otherwise, so no
 * switch is re-indexed per batch.
 *
 * <p><b>What is checked.</b> The checked traffic is an IPv6 UDP datagram from {@code ::} to a UDP
 * port, one per port and {@link PacketClasses packet class} of its destination; a class is walked
 * through the real tables (priority order, masks, in_port, metadata, goto, the action set, groups
 * with every bucket a switch may choose) by the simulated switch's own interpreter ({@link
 * Pipeline}, under {@link PipelinePolicy#INVARIANT_CHECKER}) and over the topology's links, from
 * every port of every switch the batch changes and of their neighbours. Only the classes whose
 * entries the batch adds or removes are walked (all classes of {@code ::/0} when a changed entry
 * has no {@code ipv6_dst}, or a group changed), at the UDP port the entry matches if the event port
 * or an indexed entry still matches that port (the checked datagrams are those of the new state,
 * whatever the change): an entry that matches none is walked at the event port and every port an
 * indexed entry matches, as a group change is. The classes at a port are cut by the fields of the
 * entries that a datagram to it can meet (those matching that port or none): during a layout switch
 * each layout's flows match their own event port (IndexVersion), so the new layout's flows are
 * walked with its datagrams, in its classes, and the old layout's are not walked again.
 *
 * <ul>
 *   <li>A <b>loop</b>: a copy enters a switch by the same port, with the same headers, as an
 *       earlier copy on its own path did (or crosses more than {@link #MAX_HOPS} links).
 *   <li>A <b>black hole</b>: a copy to a unicast address (outside {@code ff00::/8}) crosses a link
 *       into a switch whose table 0 has no entry for it, so the switch drops it unasked.
 *   <li>Legitimate ends, not violations: a port without a link (a host-facing edge port), the
 *       controller (a table-miss entry to the controller) and the local port; an entry that matches
 *       and sends nothing (a deliberate drop); a miss in a later table (a Camus field table no
 *       filter matches); an output to a port the switch does not have, a missing group, a group
 *       nested too deep (the switch drops the copy, as Open vSwitch does); and any miss of a
 *       content address ({@code ff00::/8}): a switch without a flow for it has nobody downstream
 *       subscribing (PLEROMA's coarse prefixes send such packets one hop too far, on purpose).
 * </ul>
 *
 * <p>A violation counts only if its path passes a switch the batch changes: traffic broken
 * elsewhere (after a link failed) is not the batch's fault, so repairs are accepted one by one.
 * Rules matching other fields (ICMPv6 types, another UDP port, a source) are evaluated against the
 * checked datagram and do not meet it. Not thread-safe.
 */
public final class FlowInvariants {
  /** A copy that crosses more links than this is in a loop (as the simulated network's). */
  public static final int MAX_HOPS = 64;

  /** The one OpenFlow interpreter, with the checker's differences from the switch. */
  private static final Pipeline PIPELINE = new Pipeline(PipelinePolicy.INVARIANT_CHECKER);

  private static final MaskedIpv6 EVERYTHING = MaskedIpv6.prefix(Ipv6Address.ZERO, 0);

  /** A switch's whole new flows and groups. */
  public record Proposal(List<FlowEntry> flows, Collection<GroupEntry> groups) {}

  /**
   * A batch's net change to one switch: the entries it removes and adds (a modified entry is in
   * both), the groups it deletes by id and the groups it adds or replaces.
   */
  public record Change(
      List<FlowEntry> removed,
      List<FlowEntry> added,
      List<Long> groupsRemoved,
      List<GroupEntry> groupsPut) {
    public Change {
      removed = List.copyOf(removed);
      added = List.copyOf(added);
      groupsRemoved = List.copyOf(groupsRemoved);
      groupsPut = List.copyOf(groupsPut);
    }

    public boolean isEmpty() {
      return removed.isEmpty() && added.isEmpty() && groupsRemoved.isEmpty() && groupsPut.isEmpty();
    }
  }

  private static final SwitchTables EMPTY = new SwitchTables(); // read only

  private final int eventPort;
  private Topology topology;
  private final Map<Long, SwitchTables> switches = new HashMap<>();
  // the switches' cuts of the Camus region walk, kept across checks (only a taken batch's)
  private final Cuts cuts = new Cuts();
  // per UDP port matched (ANY_PORT: none), every ipv6_dst field installed with its number of
  // entries: the boundaries of the classes at that port
  private final Map<Integer, Map<MaskedIpv6, Integer>> fields = new HashMap<>();
  // per UDP port, the number of entries that match it (with an ipv6_dst or not): the ports whose
  // datagrams are checked besides the event port
  private final Map<Integer, Integer> udpPorts = new HashMap<>();

  private static final int ANY_PORT = -1;

  /** Where a changed entry's traffic is: a UDP port ({@link #ANY_PORT}: every one) and a region. */
  private record Region(int port, MaskedIpv6 dst) {}

  public FlowInvariants(Topology topology, int eventPort) {
    this.topology = topology;
    this.eventPort = eventPort;
  }

  public void topology(Topology t) {
    topology = t;
    cuts.clear();
  }

  /**
   * Takes a switch's whole state as it is (not checked: a topology change's rebuild), by its
   * difference from the index.
   */
  public void put(long dpid, List<FlowEntry> flows, Collection<GroupEntry> groups) {
    take(Map.of(dpid, changeTo(dpid, flows, groups)));
  }

  /** Takes changes unchecked (an owner the service does not check). */
  public void take(Map<Long, Change> changes) {
    changes.forEach((dpid, c) -> apply(dpid, c, new HashSet<>(), new ArrayList<>()));
  }

  /** The change that turns a switch's indexed state into this whole state. */
  public Change changeTo(long dpid, List<FlowEntry> flows, Collection<GroupEntry> groups) {
    SwitchTables t = switches.getOrDefault(dpid, EMPTY);
    Map<FlowEntry, Integer> now = new HashMap<>();
    t.flows().forEach(f -> now.merge(f, 1, Integer::sum));
    List<FlowEntry> added = new ArrayList<>();
    for (FlowEntry f : flows) {
      if (now.merge(f, -1, Integer::sum) < 0) {
        added.add(f);
      }
    }
    List<FlowEntry> removed = new ArrayList<>();
    now.forEach(
        (f, n) -> {
          for (int i = 0; i < n; i++) {
            removed.add(f);
          }
        });
    Map<Long, GroupEntry> next = new LinkedHashMap<>();
    groups.forEach(g -> next.put(g.groupId(), g));
    List<Long> groupsRemoved = new ArrayList<>();
    t.groups().stream()
        .filter(g -> !next.containsKey(g.groupId()))
        .forEach(g -> groupsRemoved.add(g.groupId()));
    List<GroupEntry> groupsPut = new ArrayList<>();
    next.values().stream().filter(g -> !g.equals(t.group(g.groupId()))).forEach(groupsPut::add);
    return new Change(removed, added, groupsRemoved, groupsPut);
  }

  /** The first violation these whole states would cause; nothing is taken. */
  public Optional<Violation> checkStates(Map<Long, Proposal> proposed) {
    Map<Long, Change> changes = new LinkedHashMap<>();
    proposed.forEach((dpid, p) -> changes.put(dpid, changeTo(dpid, p.flows(), p.groups())));
    return check(changes);
  }

  /** The first violation the changes would cause; nothing is taken. */
  public Optional<Violation> check(Map<Long, Change> changes) {
    List<Runnable> undo = new ArrayList<>();
    try {
      return walk(changes, undo);
    } finally {
      undo.reversed().forEach(Runnable::run);
    }
  }

  /**
   * Checks the changes and takes them if they break nothing; else the first violation, and the
   * index is left as it was.
   */
  public Optional<Violation> offer(Map<Long, Change> changes) {
    List<Runnable> undo = new ArrayList<>();
    boolean taken = false;
    try {
      Optional<Violation> v = walk(changes, undo);
      taken = v.isEmpty();
      return v;
    } finally {
      if (!taken) {
        undo.reversed().forEach(Runnable::run);
      }
    }
  }

  /**
   * As {@link #offer}, for an owner whose traffic is the datagrams to the event port within {@code
   * space} (the Camus pipeline's query addresses, ff0e::/16): the changed entries' regions within
   * the space are walked as regions ({@link RegionWalk}), cut only where a lookup on their path
   * tells addresses apart, instead of as the classes of every field the network holds.
   */
  public Optional<Violation> offerRegion(Map<Long, Change> changes, MaskedIpv6 space) {
    List<Runnable> undo = new ArrayList<>();
    boolean taken = false;
    try {
      Cuts.View[] view = new Cuts.View[1];
      Optional<Violation> v = walkRegion(changes, space, undo, view);
      taken = v.isEmpty();
      if (taken) {
        view[0].commit(); // the batch's cuts are the tables' now; a refused one's are dropped
      }
      return v;
    } finally {
      if (!taken) {
        undo.reversed().forEach(Runnable::run);
      }
    }
  }

  /** The first violation {@link #offerRegion} would find; nothing is taken. */
  public Optional<Violation> checkRegion(Map<Long, Change> changes, MaskedIpv6 space) {
    List<Runnable> undo = new ArrayList<>();
    try {
      return walkRegion(changes, space, undo, new Cuts.View[1]);
    } finally {
      undo.reversed().forEach(Runnable::run);
    }
  }

  private Optional<Violation> walkRegion(
      Map<Long, Change> changes, MaskedIpv6 space, List<Runnable> undo, Cuts.View[] view) {
    Set<Region> regions = new LinkedHashSet<>();
    changes.forEach((dpid, c) -> applyOnly(dpid, c, regions, undo));
    List<MaskedIpv6> touched = new ArrayList<>();
    for (Region r : regions) {
      MaskedIpv6 in = Cube.intersection(r.dst(), space);
      if (in != null && (r.port() == ANY_PORT || r.port() == eventPort)) {
        touched.add(in);
      }
    }
    // the widest first; a region inside one walked already is walked with it
    touched.sort(Comparator.comparingInt(FlowInvariants::fixedBits));
    List<MaskedIpv6> walked = new ArrayList<>();
    for (MaskedIpv6 r : touched) {
      if (walked.stream().noneMatch(w -> w.covers(r))) {
        walked.add(r);
      }
    }
    Set<Long> neighbours = new LinkedHashSet<>();
    for (long dpid : changes.keySet()) {
      if (topology.hasSwitch(dpid)) {
        neighbours.addAll(topology.neighbours(dpid));
      }
    }
    // segments of the address where every mask the datagrams can meet is an interval
    Set<Ipv6Address> masks = new HashSet<>(List.of(space.mask()));
    for (int p : new int[] {ANY_PORT, eventPort}) {
      fields.getOrDefault(p, Map.of()).keySet().forEach(f -> masks.add(f.mask()));
    }
    int[] segments = Box.segments(masks);
    view[0] = cuts.view(topology, segments, changes);
    RegionWalk w = new RegionWalk(switches, topology, changes.keySet(), segments, view[0]);
    for (MaskedIpv6 r : walked) {
      Optional<Violation> v = w.walk(r, eventPort, neighbours);
      if (v.isPresent()) {
        return v;
      }
    }
    return Optional.empty();
  }

  /** Applies the changes to the index (with their undo) and walks the classes they touch. */
  private Optional<Violation> walk(Map<Long, Change> changes, List<Runnable> undo) {
    Set<Region> regions = new LinkedHashSet<>();
    changes.forEach((dpid, c) -> apply(dpid, c, regions, undo));
    if (regions.isEmpty()) {
      return Optional.empty();
    }
    // the checked datagrams are a function of the new state, not of the change: those to the event
    // port and to each port an entry still matches. A changed entry on a port no entry matches any
    // more (the last of a retired layout's flows) changes no checked datagram's fate; walking its
    // port anyway refused states that the same tables built another way passed.
    Set<Integer> ports = new TreeSet<>(udpPorts.keySet());
    ports.add(eventPort);
    Map<Integer, Set<MaskedIpv6>> byPort = new TreeMap<>();
    for (Region r : regions) {
      for (int p :
          r.port() == ANY_PORT
              ? ports
              : ports.contains(r.port()) ? Set.of(r.port()) : Set.<Integer>of()) {
        byPort.computeIfAbsent(p, x -> new LinkedHashSet<>()).add(r.dst());
      }
    }
    Set<Long> starts = new LinkedHashSet<>(changes.keySet());
    for (long dpid : changes.keySet()) {
      if (topology.hasSwitch(dpid)) {
        starts.addAll(topology.neighbours(dpid));
      }
    }
    for (Map.Entry<Integer, Set<MaskedIpv6>> e : byPort.entrySet()) {
      int udpPort = e.getKey();
      // Only the regions no other one covers: a class that meets a region meets one covering it,
      // so each class of a bulk batch is walked once, not once per nested region (a retirement's
      // guard, ff0e::/16, covers every old flow retired with it).
      List<MaskedIpv6> byWidth = new ArrayList<>(e.getValue());
      byWidth.sort(Comparator.comparingInt(FlowInvariants::fixedBits));
      List<MaskedIpv6> walked = new ArrayList<>();
      for (MaskedIpv6 r : byWidth) {
        if (walked.stream().noneMatch(w -> w.covers(r))) {
          walked.add(r);
        }
      }
      List<MaskedIpv6> all = new ArrayList<>(fields.getOrDefault(udpPort, Map.of()).keySet());
      all.addAll(fields.getOrDefault(ANY_PORT, Map.of()).keySet());
      Set<Ipv6Address> classes = new LinkedHashSet<>();
      for (MaskedIpv6 r : walked) {
        classes.addAll(PacketClasses.representatives(r, all));
      }
      for (Ipv6Address c : classes) {
        Walk w = new Walk(changes.keySet(), c);
        PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, c, udpPort, udpPort);
        for (long dpid : starts) {
          if (!topology.hasSwitch(dpid)) {
            continue;
          }
          for (long port : topology.ports(dpid)) {
            w.visit(dpid, port, h, false, 0);
            if (w.found != null) {
              return Optional.of(w.found);
            }
          }
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Applies one switch's change (as {@link #applyOnly}) and drops the kept cuts it affects: the
   * change is taken or undone without a region check, and a kept cut must hold under either.
   */
  private void apply(long dpid, Change c, Set<Region> regions, List<Runnable> undo) {
    applyOnly(dpid, c, regions, undo);
    cuts.changed(dpid, c);
  }

  /**
   * Applies one switch's change; adds the regions of the entries that did change (every region if a
   * group did) and how to undo each step.
   */
  private void applyOnly(long dpid, Change c, Set<Region> regions, List<Runnable> undo) {
    SwitchTables t = switches.computeIfAbsent(dpid, d -> new SwitchTables());
    for (FlowEntry f : c.removed()) {
      SwitchTables.Stored s = t.remove(f);
      if (s != null) {
        count(f, -1);
        regions.add(region(f));
        undo.add(
            () -> {
              t.restore(s);
              count(f, +1);
            });
      }
    }
    for (FlowEntry f : c.added()) {
      SwitchTables.Stored s = t.add(f);
      count(f, +1);
      if (!f.allActions().isEmpty() || f.gotoTable().isPresent()) {
        // a new drop (a layout switch's guard over all of ff0e::/16) can loop or black-hole no
        // packet, and walking its region would walk every content class; one it replaces is in
        // c.removed()
        regions.add(region(f));
      }
      undo.add(
          () -> {
            t.remove(s);
            count(f, -1);
          });
    }
    for (long id : c.groupsRemoved()) {
      GroupEntry before = t.removeGroup(id);
      if (before != null) {
        regions.add(new Region(ANY_PORT, EVERYTHING));
        undo.add(() -> t.putGroup(before));
      }
    }
    for (GroupEntry g : c.groupsPut()) {
      GroupEntry before = t.putGroup(g);
      if (!g.equals(before)) {
        regions.add(new Region(ANY_PORT, EVERYTHING));
      }
      undo.add(() -> restoreGroup(t, g.groupId(), before));
    }
    if (t.isEmpty()) {
      switches.remove(dpid);
      undo.add(() -> switches.put(dpid, t));
    }
  }

  private static void restoreGroup(SwitchTables t, long id, GroupEntry before) {
    if (before == null) {
      t.removeGroup(id);
    } else {
      t.putGroup(before);
    }
  }

  private void count(FlowEntry f, int delta) {
    Integer udp = f.match().udpDst();
    if (udp != null) {
      udpPorts.merge(udp, delta, (a, b) -> a + b == 0 ? null : a + b);
    }
    MaskedIpv6 d = f.match().ipv6Dst();
    if (d != null) {
      int port = port(f);
      Map<MaskedIpv6, Integer> m = fields.computeIfAbsent(port, x -> new HashMap<>());
      m.merge(d, delta, (a, b) -> a + b == 0 ? null : a + b);
      if (m.isEmpty()) {
        fields.remove(port);
      }
    }
  }

  private static int fixedBits(MaskedIpv6 m) {
    return Long.bitCount(m.mask().high()) + Long.bitCount(m.mask().low());
  }

  private static int port(FlowEntry f) {
    Integer p = f.match().udpDst();
    return p == null ? ANY_PORT : p;
  }

  /** One switch's index as a value: its entries in lookup order with their ages, its groups. */
  record Indexed(List<SwitchTables.Stored> flows, Set<GroupEntry> groups) {}

  /** Every switch's index as a value (for tests: a refused batch leaves it equal). */
  Map<Long, Indexed> snapshot() {
    Map<Long, Indexed> out = new TreeMap<>();
    switches.forEach(
        (dpid, t) -> {
          if (!t.isEmpty()) {
            out.put(dpid, new Indexed(t.stored(), Set.copyOf(t.groups())));
          }
        });
    return out;
  }

  /** The kept cuts as a value (for tests: a refused or only checked batch leaves them equal). */
  Map<Cuts.Key, List<Object>> keptCuts() {
    return cuts.contents();
  }

  Map<Integer, Map<MaskedIpv6, Integer>> fields() {
    Map<Integer, Map<MaskedIpv6, Integer>> out = new TreeMap<>();
    fields.forEach((p, m) -> out.put(p, Map.copyOf(m)));
    return out;
  }

  private static Region region(FlowEntry f) {
    return new Region(port(f), f.match().ipv6Dst() == null ? EVERYTHING : f.match().ipv6Dst());
  }

  /** One switch's treatment of a packet as the checker sees it (its ports all up). */
  static Pipeline.Outcome treat(
      SwitchTables t, Set<Long> ports, long inPort, PacketHeaders headers) {
    return PIPELINE.run(new CheckedDatapath(t, ports), inPort, headers);
  }

  static boolean isContent(Ipv6Address a) {
    return (a.high() >>> 56) == 0xff;
  }

  /**
   * A copy entering a switch by a port with headers, and whether it came by a link. Its hash is
   * computed once: a record's would hash the headers (two addresses) on every set operation, which
   * was most of a walk's time.
   */
  private static final class Step {
    final long dpid;
    final long inPort;
    final PacketHeaders headers;
    final int headersHash;
    final boolean byLink;
    final int hash;

    Step(long dpid, long inPort, PacketHeaders headers, int headersHash, boolean byLink) {
      this.dpid = dpid;
      this.inPort = inPort;
      this.headers = headers;
      this.headersHash = headersHash;
      this.byLink = byLink;
      this.hash = (31 * Long.hashCode(dpid) + Long.hashCode(inPort)) * 31 + headersHash;
    }

    /** The same arrival, however the copy came (a loop is a repeated arrival). */
    Step arrival() {
      return byLink ? new Step(dpid, inPort, headers, headersHash, false) : this;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Step s
          && s.hash == hash
          && s.dpid == dpid
          && s.inPort == inPort
          && s.byLink == byLink
          && (s.headers == headers || s.headers.equals(headers));
    }
  }

  /** One class's walks: depth first, each copy's own path kept for loops. */
  private final class Walk {
    final Set<Long> changed;
    final Ipv6Address packetClass;
    final List<SwitchPort> path = new ArrayList<>();
    final Set<Step> onPath = new HashSet<>(); // by arrival, whether by link or not
    final Set<Step> clean = new HashSet<>(); // explored: no violation below, whatever the path
    PacketHeaders lastHeaders; // most copies keep their headers: hash them once
    int lastHash;
    Violation found;

    Walk(Set<Long> changed, Ipv6Address packetClass) {
      this.changed = changed;
      this.packetClass = packetClass;
    }

    /** Whether nothing below is broken; sets {@link #found} for a violation the batch causes. */
    boolean visit(long dpid, long inPort, PacketHeaders h, boolean byLink, int hops) {
      if (h != lastHeaders) {
        lastHeaders = h;
        lastHash = h.hashCode();
      }
      Step seen = new Step(dpid, inPort, h, lastHash, byLink);
      Step step = seen.arrival();
      if (clean.contains(seen)) {
        return true;
      }
      path.add(new SwitchPort(dpid, inPort));
      try {
        if (hops > MAX_HOPS || !onPath.add(step)) {
          return broken(Violation.Kind.LOOP);
        }
        SwitchTables t = switches.getOrDefault(dpid, EMPTY);
        Pipeline.Outcome r = treat(t, topology.ports(dpid), inPort, h);
        boolean ok = true;
        if (r.missedTable0() && byLink && !isContent(h.ipv6Dst())) {
          ok = broken(Violation.Kind.BLACK_HOLE);
        }
        for (Egress c : r.egresses()) {
          if (found != null) {
            break;
          }
          SwitchPort out = new SwitchPort(dpid, c.port());
          Optional<Link> link = topology.linkAt(out);
          if (link.isPresent()) {
            SwitchPort peer = link.get().peer(out);
            ok &= visit(peer.dpid(), peer.port(), c.headers(), true, hops + 1);
          }
        }
        onPath.remove(step);
        if (ok) {
          clean.add(seen);
        }
        return ok;
      } finally {
        path.removeLast();
      }
    }

    private boolean broken(Violation.Kind kind) {
      if (found == null && path.stream().anyMatch(p -> changed.contains(p.dpid()))) {
        found = new Violation(kind, packetClass, path);
      }
      return false;
    }
  }
}
