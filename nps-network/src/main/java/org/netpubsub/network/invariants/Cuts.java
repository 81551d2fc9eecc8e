package org.netpubsub.network.invariants;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.Topology;

/**
 * The switches' cuts of regions ({@link RegionWalk}: a region entering a switch, cut into the parts
 * its tables tell apart, each part with its run's outcome), kept across checks (stop 41: at k = 8 a
 * subscription's batch changes a few entries and groups of each core, and each check cut the whole
 * space again at every changed core, ≈ 6 200 of its ≈ 12 100 pipeline runs).
 *
 * <p>A part records what its run consulted: every table lookup (table, metadata, in-port, and the
 * destination when it was one address rather than the part) and every group id. A changed entry can
 * change a part's outcome only if it could match a packet of one of those lookups (same table, its
 * in_port and metadata matching, its {@code ipv6_dst} meeting the part or the address), and a
 * changed group only if the run read it; such parts go back to the cut's unrun regions and are run
 * again when a walk needs them. The others stay: their lookups return what they did. Other fields
 * of a changed entry are ignored (more parts run again, none kept wrongly).
 *
 * <p>A check works on a {@link View}: a cut it reads is copied into the view (less the parts its
 * batch's changes affect, on a changed switch), and only an accepted batch's view is written back
 * ({@link View#commit}); a refused one, or one only checked, is dropped, so the cache is exactly as
 * before it. Changes taken without a region check ({@link #changed}) drop the affected parts at
 * once. A new topology or a new segmentation of the address ({@link Box#segments}) drops it all.
 * Cuts no check has read for {@link #IDLE_CHECKS} accepted checks are dropped, so the cache holds
 * about what the recent checks reached; a switch keeps the changes taken since its cuts were made
 * and brings a cut up to date when a check reads it. Mutable, not thread-safe (as {@link
 * FlowInvariants}).
 */
final class Cuts {
  /** Accepted checks a cut may go unread before it is dropped. */
  static final int IDLE_CHECKS = 16;

  /**
   * A region entering a switch, by any port of one {@link PortClasses} group; {@code single}: a
   * rewritten copy (the headers' destination is its one address).
   */
  record Key(
      long dpid, long lookupPort, PacketHeaders headers, Box region, boolean single, int hash) {
    Key(long dpid, long lookupPort, PacketHeaders headers, Box region, boolean single) {
      this(
          dpid,
          lookupPort,
          headers,
          region,
          single,
          mix(dpid, lookupPort, headers.hashCode(), region.hashCode(), single));
    }

    // computed once and mixed: the kept cuts are tens of thousands of keys, many at one switch and
    // port differing in the region only, and a 31-polynomial of the parts' hashes made tree bins
    static int mix(long dpid, long port, int headersHash, int regionHash, boolean flag) {
      long x = (dpid * 0x9E3779B97F4A7C15L) ^ port;
      x = (x ^ headersHash) * 0xC2B2AE3D27D4EB4FL;
      x = (x ^ regionHash ^ (flag ? 1 : 0)) * 0x9E3779B97F4A7C15L;
      return (int) (x ^ (x >>> 32));
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof Key k
              && k.hash == hash
              && k.dpid == dpid
              && k.lookupPort == lookupPort
              && k.single == single
              && k.region.equals(region)
              && k.headers.equals(headers));
    }
  }

  /** One table lookup of a run; {@code address} null when it was the part's region's lookup. */
  record Lookup(int table, long metadata, long port, Ipv6Address address) {}

  /** What a run consulted, recorded by {@link CheckedDatapath}. */
  static final class Consulted {
    final List<Lookup> lookups = new ArrayList<>(4);
    final List<Long> groups = new ArrayList<>(2);
  }

  /**
   * A cut made lazily: the parts run so far, and those cut off but not run yet (a refused batch's
   * loop is met in the first parts, so the rest is never run).
   */
  static final class Parts {
    final List<Part> done;
    final Deque<Box> pending;
    final Key key;
    long read; // the accepted-check count when a check last read it
    long version; // its switch's version (changes taken) its parts hold for

    Parts(Key key) {
      this.key = key;
      done = new ArrayList<>();
      pending = new ArrayDeque<>();
      pending.add(key.region());
    }

    private Parts(Parts p, List<Part> done, Deque<Box> pending) {
      this.key = p.key;
      this.done = done;
      this.pending = pending;
      this.read = p.read;
      this.version = p.version;
    }

    /** A copy less the parts the changes affect (their regions back to the unrun ones). */
    Parts without(SwitchChanges c) {
      List<Part> kept = new ArrayList<>(done.size());
      Deque<Box> again = new ArrayDeque<>(pending);
      for (Part p : done) {
        if (c != null && c.affects(p)) {
          again.add(p.region);
        } else {
          kept.add(p);
        }
      }
      return new Parts(this, kept, again);
    }
  }

  /**
   * One part of a cut region: its headers (destination its representative), whether table 0 missed
   * it, the copies the shared run sends, each with the arrival it makes at the link's far end
   * (null: no link, or the copy goes back out of the in-port, {@link PortClasses#PHANTOM}), and
   * what the run consulted. {@link #clean} is the walk's: the copies found clean in it, so the next
   * port of the same group walking this part skips them; it is reset when another walk first reads
   * it.
   */
  static final class Part {
    final Box region;
    final PacketHeaders headers;
    final boolean missedTable0;
    final Egress[] copies;
    final RegionWalk.Arrival[] arrivals;
    final boolean[] kept;
    final Consulted consulted;
    private final boolean[] clean;
    private long walk; // the walk the clean marks belong to

    Part(Box region, PacketHeaders headers, boolean missedTable0, int n, Consulted consulted) {
      this.region = region;
      this.headers = headers;
      this.missedTable0 = missedTable0;
      this.copies = new Egress[n];
      this.arrivals = new RegionWalk.Arrival[n];
      this.kept = new boolean[n];
      this.clean = new boolean[n];
      this.consulted = consulted;
    }

    /** The walk's clean marks for this part's copies (cleared for a new walk). */
    boolean[] clean(long walkId) {
      if (walk != walkId) {
        Arrays.fill(clean, false);
        walk = walkId;
      }
      return clean;
    }
  }

  /** One switch's changed entries and group ids, as they can affect a part's run. */
  static final class SwitchChanges {
    final List<FlowEntry> entries = new ArrayList<>();
    final List<Long> groups = new ArrayList<>();

    SwitchChanges(FlowInvariants.Change c) {
      entries.addAll(c.removed());
      entries.addAll(c.added());
      groups.addAll(c.groupsRemoved());
      c.groupsPut().forEach(g -> groups.add(g.groupId()));
    }

    boolean affects(Part p) {
      for (long g : p.consulted.groups) {
        if (groups.contains(g)) {
          return true;
        }
      }
      for (FlowEntry f : entries) {
        for (Lookup l : p.consulted.lookups) {
          if (couldMatch(f, l, p.region)) {
            return true;
          }
        }
      }
      return false;
    }

    /** Whether the entry could match some packet of the lookup (other fields ignored). */
    private static boolean couldMatch(FlowEntry f, Lookup l, Box region) {
      Match m = f.match();
      if (f.tableId() != l.table()
          || (m.inPort() != null && m.inPort() != l.port())
          || (m.metadata() != null && !m.metadata().matches(l.metadata()))) {
        return false;
      }
      if (m.ipv6Dst() == null) {
        return true;
      }
      return l.address() != null ? m.ipv6Dst().matches(l.address()) : region.overlaps(m.ipv6Dst());
    }
  }

  /**
   * One switch's kept cuts and the changes taken since the oldest of them was made: a cut is
   * brought up to date when a check reads it ({@link Parts#version}), not when a change is taken,
   * so taking a batch costs its own switches' log entries, not a pass over every kept cut.
   */
  private static final class Switch {
    final Map<Key, Parts> cuts = new HashMap<>();
    final List<SwitchChanges> log = new ArrayList<>();
    long base; // the version before log.get(0)

    long version() {
      return base + log.size();
    }

    /** The cut brought up to this switch's version; null if missing or older than the log. */
    Parts current(Key k) {
      Parts p = cuts.get(k);
      if (p == null || p.version < base) {
        return null;
      }
      for (long v = p.version; v < version(); v++) {
        p = p.without(log.get((int) (v - base)));
      }
      return p;
    }

    void taken(SwitchChanges c) {
      log.add(c);
      if (log.size() > 2 * LOG) {
        // the oldest changes go, and with them the cuts that still need them
        log.subList(0, LOG).clear();
        base += LOG;
        cuts.values().removeIf(p -> p.version < base);
      }
    }
  }

  /** Changes a switch's log keeps at least (a cut unread for longer is made again). */
  private static final int LOG = 16;

  private final Map<Long, Switch> bySwitch = new HashMap<>();
  private Topology topology;
  private int[] segments;
  private long accepted; // accepted checks so far
  private long walks; // walks begun so far: each its own clean marks

  /** Drops every cut (a new topology: links and ports decide a part's arrivals). */
  void clear() {
    bySwitch.clear();
  }

  /** Changes taken without a region check: the parts they affect are run again when read. */
  void changed(long dpid, FlowInvariants.Change c) {
    Switch s = bySwitch.get(dpid);
    if (s != null) {
      s.taken(new SwitchChanges(c));
    }
  }

  /**
   * A check's view of the cache, for a batch already applied to the tables. With another topology
   * or segmentation the view starts empty, and the cache is dropped only if its batch is taken.
   */
  View view(Topology t, int[] segs, Map<Long, FlowInvariants.Change> batch) {
    return new View(batch, t, segs);
  }

  /** The number of cuts and of parts run (for tests). */
  int[] size() {
    int cuts = 0;
    int parts = 0;
    for (Switch m : bySwitch.values()) {
      cuts += m.cuts.size();
      for (Parts p : m.cuts.values()) {
        parts += p.done.size();
      }
    }
    return new int[] {cuts, parts};
  }

  /**
   * Every kept cut as a value (for tests): its switch's version, its own, its parts' regions and
   * its unrun ones.
   */
  Map<Key, List<Object>> contents() {
    Map<Key, List<Object>> out = new HashMap<>();
    for (Switch s : bySwitch.values()) {
      s.cuts.forEach(
          (k, p) ->
              out.put(
                  k,
                  List.of(
                      s.version(),
                      p.version,
                      p.done.stream().map(x -> x.region).toList(),
                      List.copyOf(p.pending))));
    }
    return out;
  }

  /** One check's cuts: read from the cache, written back only by {@link #commit}. */
  final class View {
    private final Map<Long, SwitchChanges> batch = new HashMap<>();
    private final Map<Key, Parts> local = new HashMap<>(1 << 12);
    private final Topology viewTopology;
    private final int[] viewSegments;
    private final boolean stale; // the cache is for another topology or segmentation
    final long walkId = ++walks;

    private View(Map<Long, FlowInvariants.Change> changes, Topology t, int[] segs) {
      changes.forEach((dpid, c) -> batch.put(dpid, new SwitchChanges(c)));
      viewTopology = t;
      viewSegments = segs;
      stale = t != topology || !Arrays.equals(segs, segments);
    }

    /** The cut for this key: this check's, else the cache's (less what the batch affects). */
    Parts get(Key k) {
      Parts p = local.get(k);
      if (p == null) {
        Switch s = stale ? null : bySwitch.get(k.dpid());
        Parts cached = s == null ? null : s.current(k);
        p = cached == null ? new Parts(k) : cached.without(batch.get(k.dpid()));
        local.put(k, p);
      }
      return p;
    }

    /** Writes the check's cuts back (its batch was taken) and ages out idle ones. */
    void commit() {
      accepted++;
      if (stale) {
        bySwitch.clear();
        topology = viewTopology;
        segments = viewSegments;
      }
      batch.forEach(
          (dpid, c) -> {
            Switch s = bySwitch.get(dpid);
            if (s != null) {
              s.taken(c);
            }
          });
      for (Parts p : local.values()) {
        Switch s = bySwitch.computeIfAbsent(p.key.dpid(), d -> new Switch());
        p.read = accepted;
        p.version = s.version();
        s.cuts.put(p.key, p);
      }
      if (accepted % IDLE_CHECKS == 0) {
        bySwitch
            .values()
            .forEach(s -> s.cuts.values().removeIf(p -> accepted - p.read > IDLE_CHECKS));
        bySwitch.values().removeIf(s -> s.cuts.isEmpty());
      }
    }
  }
}
