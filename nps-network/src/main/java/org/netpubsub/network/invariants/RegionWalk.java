package org.netpubsub.network.invariants;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.MaskedIpv6;
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
 *
 * <p><b>Fewer runs, the same verdicts</b> (stop 39; {@link RegionWalkPruning} in the tests holds it
 * to the brute-force walk). A violation counts only on a path through a changed switch, and whether
 * an address's copies loop or end below an arrival does not depend on the path that led there (a
 * loop back into that path would pass the arrival again, and the walk from the arrival finds that).
 * So:
 *
 * <ul>
 *   <li>The region is sent in whole by every port of every changed switch (a <i>start</i>); an
 *       unchanged neighbour's start is followed only into changed switches (its copies elsewhere
 *       reach a changed switch, if ever, through another neighbour, which is a start too), unless
 *       the copy's headers were rewritten (no start sends those).
 *   <li>A copy arriving at a changed switch with the start's headers is walked no further once that
 *       port's start has been walked clean: the start's region holds the copy's. If the start is
 *       not walked yet it is walked first, on a path of its own; only if it is being walked (the
 *       copy came round from it) is the copy walked on in its own path. A copy that came by a link
 *       is still looked up in table 0 (a miss is a black hole).
 * </ul>
 *
 * <p>Before, each start walked its own copies of the region through every switch they reach, cut by
 * the switches on its way, so the same ports were walked again with differently cut regions. One
 * difference in the paths reported: a violation below a changed switch is reported on the path from
 * that switch's start. The {@link FlowInvariants#MAX_HOPS} bound counts from that start.
 *
 * <p><b>One cut per group of in-ports</b> (stop 40). A switch's cut of a region (its parts and each
 * part's run) is kept for the walk per group of in-ports its tables do not tell apart ({@link
 * PortClasses}): every port of a start, and copies of one part reaching a switch by several ports,
 * share it; a part's copies found clean are skipped for the next port; the parts are run lazily.
 * Every start still walks its own path: only the runs are shared, not the verdicts.
 *
 * <p><b>Cuts kept across checks</b> (stop 41): the cuts come from a {@link Cuts.View}, which hands
 * out the cuts earlier checks made (less the parts this batch's changes could affect) and keeps
 * this check's for the next one if the batch is taken. The walk itself is made anew every check.
 *
 * <p><b>An unchanged switch cuts the walked region once</b> (stop 43). Parts cut differently
 * upstream each made a cut of their own at the next switch, and each of its parts went on to be cut
 * again by the next switch's fields: on range filters over three fields up to 45 264 distinct
 * incoming regions at one unchanged switch and 336 070 runs in one check. Now an unchanged switch's
 * cut is of the whole walked region (per group of in-ports, kept across checks as every cut is),
 * and an arriving part takes the pieces of it that it meets, each narrowed to the addresses that
 * arrive (a piece walked whole could report a loop no arriving address meets). Before walking a
 * narrowed part on, the whole piece is probed once ({@link #probe}): if nothing below it breaks,
 * nothing below the part does, and the part stops there; so parts do not multiply below unchanged
 * switches.
 */
final class RegionWalk {
  private static final Pipeline PIPELINE = new Pipeline(PipelinePolicy.INVARIANT_CHECKER);
  private static final SwitchTables EMPTY = new SwitchTables();

  private final Map<Long, SwitchTables> switches;
  private final Topology topology;
  private final Set<Long> changed;
  private final int[] segments;
  private List<SwitchPort> path = new ArrayList<>();
  private List<Arrival> onPath = new ArrayList<>();
  private final Set<Arrival> clean = new HashSet<>(1 << 12); // explored: nothing broken below
  private final Map<Start, Box> started = new HashMap<>(); // walked clean, with their regions
  private final Set<Start> starting = new HashSet<>(); // being walked
  private final Cuts.View cuts; // this check's cuts, for its tables
  private final Map<Long, PortClasses> classes = new HashMap<>();
  private final Set<Arrival> dirty = new HashSet<>(); // probed: broken below for some address
  private final Set<Arrival> probing = new HashSet<>(); // being probed
  private boolean inProbe; // walking a probe: nothing is reported (see #probe)
  private boolean probeBroken; // the probe being walked found something broken: it stops
  private Box region; // the region walked
  private PacketHeaders sent; // the headers every start sends (the destination zero)
  private int runs;
  private Violation found;

  /**
   * A copy entering a switch: its headers (destination zero while it is a region) and its region
   * (null once rewritten: the headers' destination is its one address).
   */
  static final class Arrival {
    final long dpid;
    final long inPort;
    final PacketHeaders headers;
    final Box region;
    final boolean byLink;
    final int hash; // computed once: arrivals are looked up in the clean set again and again

    Arrival(long dpid, long inPort, PacketHeaders headers, Box region, boolean byLink) {
      this.dpid = dpid;
      this.inPort = inPort;
      this.headers = headers;
      this.region = region;
      this.byLink = byLink;
      this.hash = // mixed: see Cuts.Key
          Cuts.Key.mix(
              dpid, inPort, headers.hashCode(), java.util.Objects.hashCode(region), byLink);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof Arrival x
              && x.hash == hash
              && x.dpid == dpid
              && x.inPort == inPort
              && x.byLink == byLink
              && x.headers.equals(headers)
              && java.util.Objects.equals(x.region, region));
    }

    /** Whether a copy arriving so repeats this one on its own path (so it loops). */
    boolean repeatedBy(Arrival a) {
      return a.dpid == dpid
          && a.inPort == inPort
          && a.headers.equals(headers)
          && (a.region == null) == (region == null);
      // a region only shrinks along a path, so a repeated arrival's addresses all came this way
    }
  }

  /** A changed switch's port, where the region is sent in whole. */
  private record Start(long dpid, long inPort) {}

  RegionWalk(
      Map<Long, SwitchTables> switches,
      Topology topology,
      Set<Long> changed,
      int[] segments,
      Cuts.View cuts) {
    this.switches = switches;
    this.cuts = cuts;
    this.segments = segments;
    this.topology = topology;
    this.changed = changed;
  }

  /** The pipeline runs so far (one per part of a region at a switch). */
  int runs() {
    return runs;
  }

  /**
   * The first violation of the region's UDP datagrams sent in by every port of the changed switches
   * and of their {@code neighbours} (those towards a changed switch).
   */
  Optional<Violation> walk(MaskedIpv6 field, int udpPort, Iterable<Long> neighbours) {
    region = Box.of(field, segments);
    sent = PacketHeaders.udp6(Ipv6Address.ZERO, Ipv6Address.ZERO, udpPort, udpPort);
    for (long dpid : changed) {
      if (!topology.hasSwitch(dpid)) {
        continue;
      }
      for (long port : topology.ports(dpid)) {
        start(new Start(dpid, port));
        if (found != null) {
          return Optional.of(found);
        }
      }
    }
    for (long dpid : neighbours) {
      if (changed.contains(dpid) || !topology.hasSwitch(dpid)) {
        continue;
      }
      for (long port : topology.ports(dpid)) {
        visit(new Arrival(dpid, port, sent, region, false), 0, true);
        if (found != null) {
          return Optional.of(found);
        }
      }
    }
    return Optional.empty();
  }

  /** Walks a start on a path of its own, unless walked or being walked. */
  private void start(Start s) {
    Box done = started.get(s);
    if ((done != null && done.covers(region)) || starting.contains(s)) {
      return;
    }
    List<SwitchPort> outerPath = path;
    List<Arrival> outerOnPath = onPath;
    path = new ArrayList<>();
    onPath = new ArrayList<>();
    starting.add(s);
    boolean outerProbe = inProbe;
    inProbe = false; // a start's path begins at a changed switch: what breaks on it is reported
    boolean ok = visit(new Arrival(s.dpid(), s.inPort(), sent, region, false), 0, false);
    inProbe = outerProbe;
    starting.remove(s);
    path = outerPath;
    onPath = outerOnPath;
    if (ok && found == null) {
      started.put(s, region);
    }
  }

  /**
   * Whether nothing below is broken; sets {@link #found} for a violation the batch causes. {@code
   * towardsChanged}: an unchanged neighbour's start, followed only where a start does not cover it.
   */
  private boolean visit(Arrival a, int hops, boolean towardsChanged) {
    if (clean.contains(a)) {
      return true;
    }
    if (a.region != null && changed.contains(a.dpid) && a.headers.equals(sent)) {
      Start s = new Start(a.dpid, a.inPort);
      start(s);
      if (found != null) {
        return false;
      }
      Box done = started.get(s);
      if (done != null && done.covers(a.region)) {
        return !a.byLink || table0Holds(a);
      }
      // being walked (this copy came round from it): on in its own path, for the loop
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
      // an unchanged switch cuts the walked region once (per group of in-ports), and an arriving
      // part takes the pieces it meets, each narrowed to the addresses that arrive
      boolean shared = a.region != null && !changed.contains(a.dpid);
      Box whole =
          a.region == null
              ? Box.of(MaskedIpv6.exact(a.headers.ipv6Dst()), segments)
              : shared ? region : a.region;
      Cuts.Parts cut = cut(a.dpid, a.inPort, a.headers, whole, a.region == null);
      List<Cuts.Part> meeting = shared && a.region != region ? meeting(cut, a.region) : null;
      for (int p = 0; !stopped(); p++) {
        Cuts.Part part =
            meeting == null ? part(cut, p) : p < meeting.size() ? meeting.get(p) : null;
        if (part == null) {
          break;
        }
        Box arrived = meeting == null ? part.region : part.region.intersect(a.region);
        boolean narrowed = !arrived.equals(part.region);
        if (part.missedTable0 && a.byLink) {
          ok = broken(Violation.Kind.BLACK_HOLE, arrived.representative(), arrived);
        }
        boolean[] partClean = narrowed ? new boolean[part.copies.length] : part.clean(cuts.walkId);
        if (narrowed && probe(a, part, hops)) {
          continue; // the whole piece is clean below, so is the part of it that arrives
        }
        for (int i = 0; i < part.copies.length && !stopped(); i++) {
          long port = part.copies[i].port();
          if (port == a.inPort || partClean[i]) {
            continue; // the switch does not send it back this way; or walked clean already
          }
          Arrival next = part.arrivals[i];
          if (port == PortClasses.PHANTOM) {
            next = arrival(a.dpid, a.inPort, part.copies[i], part.kept[i], arrived);
          } else if (narrowed && next != null) {
            next = arrival(a.dpid, port, part.copies[i], part.kept[i], arrived);
          }
          if (next == null) {
            continue; // no link: a host's port, or a port the topology does not have
          }
          if (towardsChanged
              && !changed.contains(next.dpid)
              && part.kept[i]
              && next.headers.equals(sent)) {
            continue; // the peer's start, or a later neighbour's, covers this copy
          }
          boolean below = visit(next, hops + 1, false);
          ok &= below;
          partClean[i] = below && port != PortClasses.PHANTOM;
        }
      }
      onPath.removeLast();
      if (ok && found == null && !towardsChanged) {
        clean.add(a);
      }
      return ok;
    } finally {
      path.removeLast();
    }
  }

  /**
   * The parts a switch's tables cut a region into, each with its run's outcome, made once per group
   * of in-ports the tables do not tell apart ({@link PortClasses}) and kept for the walk: every
   * port of a start, and copies of one part reaching a switch by several ports, share it.
   */
  private Cuts.Parts cut(long dpid, long inPort, PacketHeaders headers, Box whole, boolean single) {
    SwitchTables t = switches.getOrDefault(dpid, EMPTY);
    long lookup =
        classes
            .computeIfAbsent(dpid, d -> new PortClasses(t, topology.ports(d)))
            .lookupPort(inPort);
    return cuts.get(new Cuts.Key(dpid, lookup, headers, whole, single));
  }

  /** The cut's part {@code i}, run now if not yet; null past the last. */
  private Cuts.Part part(Cuts.Parts cut, int i) {
    while (cut.done.size() <= i) {
      if (cut.pending.isEmpty()) {
        return null;
      }
      run(cut, cut.pending.poll());
    }
    return cut.done.get(i);
  }

  /**
   * The cut's parts that meet {@code arriving}, their unrun regions that meet it run now (the
   * others stay unrun).
   */
  private List<Cuts.Part> meeting(Cuts.Parts cut, Box arriving) {
    List<Cuts.Part> out = new ArrayList<>();
    for (Cuts.Part p : cut.done) {
      if (p.region.meets(arriving)) {
        out.add(p);
      }
    }
    Deque<Box> apart = new ArrayDeque<>();
    while (!cut.pending.isEmpty()) {
      Box b = cut.pending.poll();
      if (!b.meets(arriving)) {
        apart.add(b);
        continue;
      }
      Cuts.Part p = run(cut, b);
      if (p.region.meets(arriving)) {
        out.add(p);
      }
    }
    cut.pending.addAll(apart);
    return out;
  }

  /** Runs one unrun region of a cut: its part goes to the cut's parts, the rest back to unrun. */
  private Cuts.Part run(Cuts.Parts cut, Box unrun) {
    Cuts.Key key = cut.key;
    SwitchTables t = switches.getOrDefault(key.dpid(), EMPTY);
    Cube cube = new Cube(unrun);
    PacketHeaders h = key.headers().withIpv6Dst(cube.representative());
    runs++;
    Cuts.Consulted consulted = new Cuts.Consulted();
    Pipeline.Outcome r =
        PIPELINE.run(
            CheckedDatapath.cutting(
                t, topology.ports(key.dpid()), cube, key.lookupPort(), consulted),
            PortClasses.PHANTOM,
            h);
    cut.pending.addAll(cube.cutOff());
    List<Egress> copies = r.egresses();
    Cuts.Part part = new Cuts.Part(cube.region(), h, r.missedTable0(), copies.size(), consulted);
    for (int k = 0; k < copies.size(); k++) {
      Egress c = copies.get(k);
      part.copies[k] = c;
      part.kept[k] = !key.single() && c.headers().ipv6Dst().equals(h.ipv6Dst());
      if (c.port() != PortClasses.PHANTOM) {
        part.arrivals[k] = arrival(key.dpid(), c.port(), c, part.kept[k], part.region);
      }
    }
    cut.done.add(part);
    return part;
  }

  /**
   * The arrival a copy sent out of a port makes at the link's far end, or null without a link; a
   * copy whose destination the switch kept is still the part (destination zero), else one address.
   */
  private Arrival arrival(long dpid, long port, Egress c, boolean kept, Box part) {
    SwitchPort out = new SwitchPort(dpid, port);
    Optional<Link> link = topology.linkAt(out);
    if (link.isEmpty()) {
      return null;
    }
    SwitchPort peer = link.get().peer(out);
    PacketHeaders next = kept ? c.headers().withIpv6Dst(Ipv6Address.ZERO) : c.headers();
    return new Arrival(peer.dpid(), peer.port(), next, kept ? part : null, true);
  }

  /**
   * Whether every address of a copy that came by a link hits an entry of table 0 (else a black
   * hole, reported on the copy's path).
   */
  private boolean table0Holds(Arrival a) {
    SwitchTables t = switches.getOrDefault(a.dpid, EMPTY);
    Deque<Box> parts = new ArrayDeque<>();
    parts.add(a.region);
    while (!parts.isEmpty()) {
      Cube cube = new Cube(parts.poll());
      PacketHeaders h = a.headers.withIpv6Dst(cube.representative());
      if (t.lookup(0, h, a.inPort, 0, cube) == null) {
        path.add(new SwitchPort(a.dpid, a.inPort));
        try {
          return broken(Violation.Kind.BLACK_HOLE, h.ipv6Dst(), cube.region());
        } finally {
          path.removeLast();
        }
      }
      parts.addAll(cube.cutOff());
    }
    clean.add(a);
    return true;
  }

  /**
   * Whether the walk stops: a violation found, or the probe being walked found something broken.
   */
  private boolean stopped() {
    return found != null || probeBroken;
  }

  /**
   * Whether the whole piece of an unchanged switch's cut that an arriving part was narrowed from is
   * clean below that arrival's switch and port: walked once on a path of its own, as a start is,
   * reporting nothing (its addresses outside the arriving part need not arrive), and remembered. If
   * it is clean, so is every part of it: the walk below an arrival does not depend on the path that
   * led there (a loop back into that path passes the arrival again, which the probe's own path
   * sees) and an address's fate not on the others'. If not, the caller walks the narrowed part on
   * its own path, which reports what breaks for the addresses that arrive. This is what keeps parts
   * cut differently upstream from multiplying here: each is judged by the pieces it meets.
   */
  private boolean probe(Arrival a, Cuts.Part part, int hops) {
    Arrival whole = new Arrival(a.dpid, a.inPort, a.headers, part.region, a.byLink);
    if (clean.contains(whole)) {
      return true;
    }
    if (dirty.contains(whole) || probing.contains(whole)) {
      return false; // broken below for some of its addresses, or being probed (round a loop)
    }
    List<SwitchPort> outerPath = path;
    List<Arrival> outerOnPath = onPath;
    boolean outerProbe = inProbe;
    path = new ArrayList<>();
    onPath = new ArrayList<>();
    inProbe = true;
    probing.add(whole);
    boolean ok = visit(whole, hops, false);
    probing.remove(whole);
    inProbe = outerProbe;
    probeBroken = false; // what this probe found broken stops only this probe
    path = outerPath;
    onPath = outerOnPath;
    if (!ok) {
      dirty.add(whole);
    }
    return ok && found == null;
  }

  private boolean broken(Violation.Kind kind, Ipv6Address packetClass, Box region) {
    if (inProbe) {
      probeBroken = true;
      return false;
    }
    if (found == null && path.stream().anyMatch(p -> changed.contains(p.dpid()))) {
      found = new Violation(kind, packetClass, path, region == null ? null : region.toString());
    }
    return false;
  }
}
