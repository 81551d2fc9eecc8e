package org.netpubsub.network.discovery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TopologyChange;
import org.netpubsub.network.topology.TopologyChange.LinkAdded;
import org.netpubsub.network.topology.TopologyChange.LinkRemoved;

/**
 * LLDP link discovery as a state machine without I/O: {@link #probes} says which LLDP packet-outs
 * to send (every port of every switch once per probe interval, a new port at once; with {@link
 * Config#slots} above 1, the ports' turns spread over the interval), {@link #onLldp} turns an LLDP
 * packet-in carrying this controller's nonce into a learned or refreshed link, {@link #expire}
 * drops links not seen for {@code expiryIntervals} probe intervals, and port or switch loss drops
 * their links at once. Each returns the {@link TopologyChange}s it implies. Times are milliseconds
 * of any monotonic clock. Not thread-safe: one controller thread drives it.
 */
public final class LinkDiscovery {

  /**
   * Timings and identity: probe every {@code probeIntervalMillis}; a link unseen for {@code
   * expiryIntervals} intervals is gone (so it survives {@code expiryIntervals - 1} lost rounds);
   * {@code nonce} marks this controller's frames (pick it at random at start-up); {@code source} is
   * the frames' Ethernet source.
   */
  public record Config(
      long probeIntervalMillis, int expiryIntervals, long nonce, MacAddress source, int slots) {
    public static final long DEFAULT_PROBE_INTERVAL_MILLIS = 5_000;

    public static final int DEFAULT_EXPIRY_INTERVALS = 3;

    /**
     * {@code slots}: 1, every port is probed when an interval has passed since its last probe
     * (ports found together stay probed together); n above 1, the interval is cut into n windows,
     * each port has one (ports in sorted order, round robin), and it is probed once in each of its
     * windows, so a call at least once per window sends about 1/n of the probes. Spreading keeps
     * the controller's thread and the switches from a burst of packet-outs and LLDP packet-ins at
     * one tick, which delays whatever else they handle then (flow-mods: docs/results/
     * ovs-response-p99.md, stop 40). A port's gap between probes is then at most an interval and a
     * window (its first turn after an at-once probe may come early).
     */
    public Config {
      if (probeIntervalMillis < 1 || expiryIntervals < 1 || source == null) {
        throw new IllegalArgumentException(
            "probe interval and expiry intervals must be positive, source given");
      }
      if (slots < 1 || slots > probeIntervalMillis) {
        throw new IllegalArgumentException(
            "slots must be 1.." + probeIntervalMillis + " (the interval in ms), got " + slots);
      }
    }

    /** Every port probed when an interval has passed since its last probe (one slot). */
    public Config(long probeIntervalMillis, int expiryIntervals, long nonce, MacAddress source) {
      this(probeIntervalMillis, expiryIntervals, nonce, source, 1);
    }

    /** The same, with the ports' turns spread over {@code n} windows of the interval. */
    public Config spreadOver(int n) {
      return new Config(probeIntervalMillis, expiryIntervals, nonce, source, n);
    }

    /** 5 s probes, expiry after 3 intervals (15 s), source 02:4e:50:53:00:00. */
    public static Config defaults(long nonce) {
      return new Config(
          DEFAULT_PROBE_INTERVAL_MILLIS,
          DEFAULT_EXPIRY_INTERVALS,
          nonce,
          new MacAddress(0x02_4e_50_53_00_00L));
    }

    /** How long a link lives without LLDP. */
    public long expiryMillis() {
      return probeIntervalMillis * expiryIntervals;
    }
  }

  /** One LLDP packet-out: send {@link #bytes} out of {@code port} of switch {@code dpid}. */
  public record Probe(long dpid, long port, LldpFrame frame) {
    public byte[] bytes() {
      return frame.encode();
    }
  }

  private final Config config;
  private final Map<SwitchPort, Long> lastProbed = new TreeMap<>();
  private final Map<Link, Long> lastSeen = new TreeMap<>();
  private long foreignFrames;
  private long malformedFrames;

  public LinkDiscovery(Config config) {
    this.config = config;
  }

  public Config config() {
    return config;
  }

  /**
   * The probes due at {@code now} for these switches and ports: ports never probed (new switch, new
   * port, port back up) and ports whose turn it is (an interval since their last probe; with slots,
   * their window has begun since it: {@link Config}). Ports no longer listed are forgotten.
   */
  public List<Probe> probes(long now, Map<Long, ? extends Collection<Long>> switchPorts) {
    Map<SwitchPort, Long> keep = new TreeMap<>();
    List<Probe> out = new ArrayList<>();
    int ttl = (int) Math.min(0xffff, (config.expiryMillis() + 999) / 1000);
    int rank = 0; // the port's place in (dpid, port) order: its slot, round robin
    Map<Long, ? extends Collection<Long>> ordered =
        config.slots() == 1 ? switchPorts : new TreeMap<Long, Collection<Long>>(switchPorts);
    for (Map.Entry<Long, ? extends Collection<Long>> e : ordered.entrySet()) {
      for (long port : new TreeSet<>(e.getValue())) {
        if (!SwitchPort.isPhysical(port)) {
          continue; // LOCAL and other reserved ports lead to no link
        }
        SwitchPort sp = new SwitchPort(e.getKey(), port);
        Long last = lastProbed.get(sp);
        int slot = rank++ % config.slots();
        if (last == null || due(now, last, slot)) {
          LldpFrame f =
              new LldpFrame(
                  config.source(), sp.dpid(), sp.port(), ttl, OptionalLong.of(config.nonce()));
          out.add(new Probe(sp.dpid(), sp.port(), f));
          last = now;
        }
        keep.put(sp, last);
      }
    }
    lastProbed.clear();
    lastProbed.putAll(keep);
    return out;
  }

  /** Whether a port of this slot, last probed at {@code last}, is due at {@code now}. */
  private boolean due(long now, long last, int slot) {
    if (config.slots() == 1) {
      return now - last >= config.probeIntervalMillis();
    }
    return last < SlotWindows.lastStart(now, config.probeIntervalMillis(), config.slots(), slot);
  }

  /**
   * An LLDP frame arrived at {@code inPort} of {@code dpid}. Ours, from another port: the link is
   * learned (replacing links at either end: a port has one peer) or refreshed. Malformed or foreign
   * frames (no or another nonce) change nothing.
   */
  public List<TopologyChange> onLldp(long now, long dpid, long inPort, byte[] frame) {
    DecodeResult<LldpFrame> d = LldpFrame.decode(frame);
    if (!(d instanceof DecodeResult.Ok<LldpFrame> ok)) {
      malformedFrames++;
      return List.of();
    }
    LldpFrame f = ok.value();
    if (f.nonce().isEmpty() || f.nonce().getAsLong() != config.nonce()) {
      foreignFrames++;
      return List.of();
    }
    if (!SwitchPort.isPhysical(inPort)) {
      return List.of(); // punted from LOCAL or a reserved port: no link
    }
    SwitchPort from = new SwitchPort(f.dpid(), f.port());
    SwitchPort to = new SwitchPort(dpid, inPort);
    if (from.equals(to)) {
      return List.of();
    }
    Link link = new Link(from, to);
    if (lastSeen.containsKey(link)) {
      lastSeen.put(link, Math.max(now, lastSeen.get(link)));
      return List.of();
    }
    List<TopologyChange> out = new ArrayList<>();
    removeLinks(l -> l.has(from) || l.has(to), out);
    lastSeen.put(link, now);
    out.add(new LinkAdded(link));
    return out;
  }

  /** The links not seen for the expiry time are gone. */
  public List<TopologyChange> expire(long now) {
    List<TopologyChange> out = new ArrayList<>();
    removeLinks(l -> now - lastSeen.get(l) >= config.expiryMillis(), out);
    return out;
  }

  /** A port went down (port-status): its link is gone, and the port is probed when it is back. */
  public List<TopologyChange> onPortDown(long dpid, long port) {
    if (!SwitchPort.isPhysical(port)) {
      return List.of();
    }
    SwitchPort sp = new SwitchPort(dpid, port);
    lastProbed.remove(sp);
    List<TopologyChange> out = new ArrayList<>();
    removeLinks(l -> l.has(sp), out);
    return out;
  }

  /** A port came up: probe it at the next {@link #probes} call. */
  public void onPortUp(long dpid, long port) {
    if (SwitchPort.isPhysical(port)) {
      lastProbed.remove(new SwitchPort(dpid, port));
    }
  }

  /** A switch disconnected: its links are gone. */
  public List<TopologyChange> onSwitchRemoved(long dpid) {
    lastProbed.keySet().removeIf(sp -> sp.dpid() == dpid);
    List<TopologyChange> out = new ArrayList<>();
    removeLinks(l -> l.a().dpid() == dpid || l.b().dpid() == dpid, out);
    return out;
  }

  private void removeLinks(java.util.function.Predicate<Link> which, List<TopologyChange> out) {
    for (Link l : new ArrayList<>(lastSeen.keySet())) {
      if (which.test(l)) {
        lastSeen.remove(l);
        out.add(new LinkRemoved(l));
      }
    }
  }

  /** The links currently believed up. */
  public SortedSet<Link> links() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(lastSeen.keySet()));
  }

  /** LLDP frames that were not ours (no or another nonce): other controllers, real LLDP agents. */
  public long foreignFrames() {
    return foreignFrames;
  }

  /** LLDP packet-ins that did not decode. */
  public long malformedFrames() {
    return malformedFrames;
  }
}
