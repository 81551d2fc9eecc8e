package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The invariant checker of the flow service (EMD §4.3, VeriFlow's incremental check): it holds
 * every switch's flows and groups, and checks a batch's final state — the whole new state of each
 * switch the batch changes — before the batch reaches a switch.
 *
 * <p><b>What is checked.</b> The checked traffic is an IPv6 UDP datagram from {@code ::} to the
 * event port, one per {@link PacketClasses packet class} of its destination; a class is walked
 * through the real tables (priority order, masks, in_port, metadata, goto, the action set, groups
 * with every bucket a switch may choose) and over the topology's links, from every port of every
 * switch the batch changes and of their neighbours. Only the classes whose entries the batch adds
 * or removes are walked (all classes of {@code ::/0} when a changed entry has no {@code ipv6_dst},
 * or a group changed).
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

  private static final MaskedIpv6 EVERYTHING = MaskedIpv6.prefix(Ipv6Address.ZERO, 0);
  private static final int MAX_GROUP_DEPTH = 64;
  private static final int MAX_GROUP_EXECUTIONS = 4096;

  /** A switch's whole new flows and groups. */
  public record Proposal(List<FlowEntry> flows, Collection<GroupEntry> groups) {}

  private final int eventPort;
  private Topology topology;
  private final Map<Long, SwitchTables> switches = new HashMap<>();
  // every ipv6_dst field installed, with its number of entries: the boundaries of the classes
  private final Map<MaskedIpv6, Integer> fields = new HashMap<>();

  public FlowInvariants(Topology topology, int eventPort) {
    this.topology = topology;
    this.eventPort = eventPort;
  }

  public void topology(Topology t) {
    topology = t;
  }

  /** Takes a switch's state as it is (accepted, or not checked: a topology change's rebuild). */
  public void put(long dpid, List<FlowEntry> flows, Collection<GroupEntry> groups) {
    SwitchTables before = switches.getOrDefault(dpid, SwitchTables.EMPTY);
    before.flows().forEach(f -> count(f, -1));
    SwitchTables after = new SwitchTables(flows, groups);
    after.flows().forEach(f -> count(f, +1));
    if (flows.isEmpty() && groups.isEmpty()) {
      switches.remove(dpid);
    } else {
      switches.put(dpid, after);
    }
  }

  private void count(FlowEntry f, int delta) {
    MaskedIpv6 d = f.match().ipv6Dst();
    if (d != null) {
      fields.merge(d, delta, (a, b) -> a + b == 0 ? null : a + b);
    }
  }

  /** The first violation the proposed states would cause; nothing is taken. */
  public Optional<Violation> check(Map<Long, Proposal> proposed) {
    Map<Long, SwitchTables> next = new HashMap<>();
    Set<MaskedIpv6> regions = new LinkedHashSet<>();
    Set<MaskedIpv6> newFields = new HashSet<>();
    proposed.forEach(
        (dpid, p) -> {
          SwitchTables after = new SwitchTables(p.flows(), p.groups());
          next.put(dpid, after);
          touched(switches.getOrDefault(dpid, SwitchTables.EMPTY), after, regions);
          p.flows().stream()
              .map(f -> f.match().ipv6Dst())
              .filter(d -> d != null)
              .forEach(newFields::add);
        });
    if (regions.isEmpty()) {
      return Optional.empty();
    }
    Set<MaskedIpv6> walked = regions.contains(EVERYTHING) ? Set.of(EVERYTHING) : regions;
    // the committed fields and the new ones: a finer split than the new state's, so as sound
    List<MaskedIpv6> all = new ArrayList<>(fields.keySet());
    newFields.stream().filter(f -> !fields.containsKey(f)).forEach(all::add);
    Set<Ipv6Address> classes = new LinkedHashSet<>();
    for (MaskedIpv6 r : walked) {
      classes.addAll(PacketClasses.representatives(r, all));
    }
    Set<Long> starts = new LinkedHashSet<>(proposed.keySet());
    for (long dpid : proposed.keySet()) {
      if (topology.hasSwitch(dpid)) {
        starts.addAll(topology.neighbours(dpid));
      }
    }
    for (Ipv6Address c : classes) {
      Walk w = new Walk(next, proposed.keySet(), c);
      PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, c, eventPort, eventPort);
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
    return Optional.empty();
  }

  /** The regions of the entries that differ; every region if a group differs. */
  private static void touched(SwitchTables before, SwitchTables after, Set<MaskedIpv6> out) {
    Set<FlowEntry> a = new HashSet<>(before.flows());
    Set<FlowEntry> b = new HashSet<>(after.flows());
    for (FlowEntry f : before.flows()) {
      if (!b.contains(f)) {
        out.add(region(f));
      }
    }
    for (FlowEntry f : after.flows()) {
      if (!a.contains(f)) {
        out.add(region(f));
      }
    }
    if (!new HashSet<>(before.groups()).equals(new HashSet<>(after.groups()))) {
      out.add(EVERYTHING);
    }
  }

  private static MaskedIpv6 region(FlowEntry f) {
    return f.match().ipv6Dst() == null ? EVERYTHING : f.match().ipv6Dst();
  }

  static boolean isContent(Ipv6Address a) {
    return (a.high() >>> 56) == 0xff;
  }

  private record Step(long dpid, long inPort, PacketHeaders headers) {}

  private record Seen(Step step, boolean byLink) {}

  /** One class's walks: depth first, each copy's own path kept for loops. */
  private final class Walk {
    final Map<Long, SwitchTables> next;
    final Set<Long> changed;
    final Ipv6Address packetClass;
    final List<SwitchPort> path = new ArrayList<>();
    final Set<Step> onPath = new HashSet<>();
    final Set<Seen> clean = new HashSet<>(); // explored: no violation below, whatever the path
    Violation found;

    Walk(Map<Long, SwitchTables> next, Set<Long> changed, Ipv6Address packetClass) {
      this.next = next;
      this.changed = changed;
      this.packetClass = packetClass;
    }

    /** Whether nothing below is broken; sets {@link #found} for a violation the batch causes. */
    boolean visit(long dpid, long inPort, PacketHeaders h, boolean byLink, int hops) {
      Step step = new Step(dpid, inPort, h);
      Seen seen = new Seen(step, byLink);
      if (clean.contains(seen)) {
        return true;
      }
      path.add(new SwitchPort(dpid, inPort));
      try {
        if (hops > MAX_HOPS || !onPath.add(step)) {
          return broken(Violation.Kind.LOOP);
        }
        SwitchTables t = next.getOrDefault(dpid, switches.getOrDefault(dpid, SwitchTables.EMPTY));
        Pipeline.Result r = new Pipeline(t, topology.ports(dpid), inPort).run(h);
        boolean ok = true;
        if (r.missedTable0() && byLink && !isContent(h.ipv6Dst())) {
          ok = broken(Violation.Kind.BLACK_HOLE);
        }
        for (Pipeline.Copy c : r.copies()) {
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

  /** One switch's treatment of one packet (OpenFlow 1.3 §5, as Open vSwitch executes it). */
  private static final class Pipeline {
    record Copy(long port, PacketHeaders headers) {}

    record Result(List<Copy> copies, boolean missedTable0) {}

    private final SwitchTables t;
    private final Set<Long> ports;
    private final long inPort;
    private final List<Copy> out = new ArrayList<>();
    private final Map<String, Action> actionSet = new LinkedHashMap<>();
    private PacketHeaders h;
    private int groupExecutions;

    Pipeline(SwitchTables t, Set<Long> ports, long inPort) {
      this.t = t;
      this.ports = ports;
      this.inPort = inPort;
    }

    Result run(PacketHeaders headers) {
      h = headers;
      long metadata = 0;
      int table = 0;
      try {
        while (true) {
          FlowEntry f = t.lookup(table, h, inPort, metadata);
          if (f == null) {
            executeActionSet(); // OVS executes the action set on a miss
            return new Result(out, table == 0);
          }
          Integer goTo = null;
          for (var i : f.instructions()) {
            switch (i) {
              case Instruction.ApplyActions a -> a.actions().forEach(x -> execute(x, 0));
              case Instruction.ClearActions c -> actionSet.clear();
              case Instruction.WriteActions w ->
                  w.actions().forEach(x -> actionSet.put(x.actionSetKey(), x));
              case Instruction.WriteMetadata m ->
                  metadata = (metadata & ~m.mask()) | (m.value() & m.mask());
              case Instruction.GotoTable g -> goTo = g.tableId();
            }
          }
          if (goTo == null || goTo <= table) {
            executeActionSet();
            return new Result(out, false);
          }
          table = goTo;
        }
      } catch (TooDeep e) {
        return new Result(List.of(), false); // the switch drops the whole packet
      }
    }

    private void executeActionSet() {
      for (Action a : actionSet.values()) {
        if (a instanceof Action.SetField s) {
          h = s.applyTo(h);
        }
      }
      Action group = actionSet.get("group");
      Action output = actionSet.get("output");
      if (group != null) {
        execute(group, 0);
      } else if (output != null) {
        execute(output, 0);
      }
    }

    private void execute(Action a, int depth) {
      switch (a) {
        case Action.Output o -> output(o.port());
        case Action.Group g -> group(g.groupId(), depth);
        case Action.SetField s -> h = s.applyTo(h);
      }
    }

    private void output(long port) {
      if (port == OfPort.IN_PORT) {
        out.add(new Copy(inPort, h));
      } else if (port == OfPort.ALL || port == OfPort.FLOOD) {
        ports.stream().filter(p -> p != inPort).forEach(p -> out.add(new Copy(p, h)));
      } else if (port != inPort && ports.contains(port)) {
        out.add(new Copy(port, h)); // the controller, the local port and missing ones end here
      }
    }

    private void group(long id, int depth) {
      if (depth >= MAX_GROUP_DEPTH || ++groupExecutions > MAX_GROUP_EXECUTIONS) {
        throw new TooDeep();
      }
      GroupEntry g = t.group(id);
      if (g == null) {
        return;
      }
      PacketHeaders saved = h;
      List<Bucket> run =
          switch (g.type()) {
            case ALL -> g.buckets();
            case INDIRECT -> g.buckets().isEmpty() ? List.of() : g.buckets().subList(0, 1);
            case FF -> g.buckets().stream().filter(b -> alive(b, 0)).limit(1).toList();
            // any live weighted bucket may be chosen: every one is walked
            case SELECT -> g.buckets().stream().filter(b -> b.weight() > 0 && alive(b, 0)).toList();
          };
      for (var b : run) {
        h = saved;
        for (Action a : b.actions()) {
          execute(a, depth + 1);
        }
      }
      h = saved;
    }

    /** Open vSwitch's bucket_is_alive, with every port of the topology up. */
    private boolean alive(Bucket b, int depth) {
      if (!b.hasLiveness()) {
        return true;
      }
      if (b.watchPort() != OfPort.ANY && ports.contains(b.watchPort())) {
        return true;
      }
      if (b.watchGroup() == FlowMod.ANY_GROUP || depth >= 2 * MAX_GROUP_DEPTH) {
        return false;
      }
      GroupEntry w = t.group(b.watchGroup());
      return w != null && w.buckets().stream().anyMatch(x -> alive(x, depth + 1));
    }
  }

  private static final class TooDeep extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooDeep() {
      super(null, null, false, false);
    }
  }
}
