package org.netpubsub.network.nbi;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * EMD's {@code {xid : multi_app}} record and FLAG table (Algorithm 1 line 28, Algorithm 2 lines
 * 4–17): for each packet-in that went to several apps, the switches an app's packet-out has already
 * sent it from, so that a second app's answer does not send the packet twice.
 *
 * <p>Keyed by (switch, xid), not by xid alone: xids are per connection, and two switches may use
 * the same one. Only multi-app packet-ins are kept — a packet-out for any other passes — and only
 * the last {@link #capacity} of them: recording one more forgets the oldest, so the record never
 * grows without bound. A packet-out for a forgotten packet-in passes, as if one app had got it.
 *
 * <p>Not thread-safe: the northbound runtime confines it to its dispatch thread.
 */
public final class MultiAppRecord {
  /**
   * Multi-app packet-ins remembered by default: at 10,000 multi-app packet-ins per second, apps
   * have 400 ms to answer before a duplicate can slip through; each entry costs ~100 bytes.
   */
  public static final int DEFAULT_CAPACITY = 4096;

  private record PacketInId(long dpid, long xid) {}

  private final int capacity;

  /** Insertion-ordered: the eldest entry is the one recorded longest ago. */
  private final LinkedHashMap<PacketInId, Set<Long>> answered;

  public MultiAppRecord() {
    this(DEFAULT_CAPACITY);
  }

  public MultiAppRecord(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
    }
    this.capacity = capacity;
    this.answered =
        new LinkedHashMap<>() {
          @Override
          protected boolean removeEldestEntry(Map.Entry<PacketInId, Set<Long>> eldest) {
            return size() > MultiAppRecord.this.capacity;
          }
        };
  }

  public int capacity() {
    return capacity;
  }

  /** Remembers how a packet-in was classified (Algorithm 1 line 28). */
  public void record(long dpid, long xid, Classification c) {
    record(dpid, xid, c.multiApp());
  }

  /**
   * Remembers whether a packet-in went to several apps. Recording an xid again (a switch reuses
   * xids once they wrap) starts afresh.
   */
  public void record(long dpid, long xid, boolean multiApp) {
    PacketInId id = new PacketInId(dpid, xid);
    answered.remove(id); // re-inserted as the newest
    if (multiApp) {
      answered.put(id, new HashSet<>());
    }
  }

  /** True if the packet-in is remembered as one that went to several apps. */
  public boolean isMultiApp(long dpid, long xid) {
    return answered.containsKey(new PacketInId(dpid, xid));
  }

  /** The switches a packet-out for this packet-in has passed from (Algorithm 2's 'dealt'). */
  public Set<Long> dealt(long dpid, long xid) {
    Set<Long> s = answered.get(new PacketInId(dpid, xid));
    return s == null ? Set.of() : Set.copyOf(s);
  }

  /** The number of multi-app packet-ins remembered, at most {@link #capacity}. */
  public int size() {
    return answered.size();
  }

  /**
   * Algorithm 2, lines 5–16: decides on a packet-out and, if it passes for a multi-app packet-in,
   * remembers its switch. A packet-out is a duplicate if its switch, or the switch its output port
   * links to in {@code topology}, was already dealt with. {@code alive} is check_alive: asked about
   * a physical output port only (a reserved port such as FLOOD has no single peer).
   */
  public PacketOutVerdict decide(
      PacketOutRequest out, Topology topology, Predicate<SwitchPort> alive) {
    Set<Long> dealt = answered.get(new PacketInId(out.packetInDpid(), out.packetInXid()));
    if (dealt == null) {
      return PacketOutVerdict.PASS;
    }
    SwitchPort port =
        SwitchPort.isPhysical(out.outPort()) ? new SwitchPort(out.dpid(), out.outPort()) : null;
    Long next =
        port == null
            ? null
            : topology.linkAt(port).map(l -> l.peer(port).dpid()).orElse(null); // output.dpid
    if (dealt.contains(out.dpid()) || (next != null && dealt.contains(next))) {
      return PacketOutVerdict.DROP_DUPLICATE;
    }
    if (port != null && !alive.test(port)) {
      return PacketOutVerdict.DEAD_PORT;
    }
    dealt.add(out.dpid());
    return PacketOutVerdict.PASS;
  }

  /**
   * check_alive from the topology alone: a port is alive if it carries a link or a known host sits
   * at it. A port whose link went down keeps neither, so it is dead.
   */
  public static Predicate<SwitchPort> aliveIn(Topology topology) {
    return p -> topology.linkAt(p).isPresent() || !topology.hostsAt(p).isEmpty();
  }
}
