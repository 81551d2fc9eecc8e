package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * One switch's flows and groups as the checker looks them up: per table, the entries with an exact
 * {@code ipv6_dst} hashed by it (unicast routes: thousands on a big fabric) and the others in
 * priority order. Immutable.
 */
final class SwitchTables {
  static final SwitchTables EMPTY = new SwitchTables(List.of(), List.of());

  private record Table(Map<Ipv6Address, List<FlowEntry>> exact, List<FlowEntry> others) {}

  private static final Comparator<FlowEntry> BY_PRIORITY =
      Comparator.comparingInt(FlowEntry::priority).reversed();

  private final Map<Integer, Table> tables = new HashMap<>();
  private final Map<Long, GroupEntry> groups = new HashMap<>();
  private final List<FlowEntry> flows;

  SwitchTables(List<FlowEntry> flows, Collection<GroupEntry> groups) {
    this.flows = List.copyOf(flows);
    Map<Integer, Map<Ipv6Address, List<FlowEntry>>> exact = new HashMap<>();
    Map<Integer, List<FlowEntry>> others = new HashMap<>();
    for (FlowEntry f : flows) {
      if (f.match().ipv6Dst() != null && f.match().ipv6Dst().isExact()) {
        exact
            .computeIfAbsent(f.tableId(), t -> new HashMap<>())
            .computeIfAbsent(f.match().ipv6Dst().value(), a -> new ArrayList<>())
            .add(f);
      } else {
        others.computeIfAbsent(f.tableId(), t -> new ArrayList<>()).add(f);
      }
    }
    for (int t : union(exact.keySet(), others.keySet())) {
      Map<Ipv6Address, List<FlowEntry>> e = exact.getOrDefault(t, Map.of());
      e.values().forEach(l -> l.sort(BY_PRIORITY));
      List<FlowEntry> o = others.getOrDefault(t, new ArrayList<>());
      o.sort(BY_PRIORITY); // stable: among equal priorities, the first written first
      tables.put(t, new Table(e, o));
    }
    groups.forEach(g -> this.groups.put(g.groupId(), g));
  }

  private static List<Integer> union(Collection<Integer> a, Collection<Integer> b) {
    List<Integer> out = new ArrayList<>(a);
    b.stream().filter(x -> !a.contains(x)).forEach(out::add);
    return out;
  }

  List<FlowEntry> flows() {
    return flows;
  }

  Collection<GroupEntry> groups() {
    return groups.values();
  }

  GroupEntry group(long id) {
    return groups.get(id);
  }

  /** The entry a packet hits in a table (highest priority), or null on a table miss. */
  FlowEntry lookup(int table, PacketHeaders h, long inPort, long metadata) {
    Table t = tables.get(table);
    if (t == null) {
      return null;
    }
    FlowEntry best = null;
    if (h.isIpv6()) {
      for (FlowEntry f : t.exact().getOrDefault(h.ipv6Dst(), List.of())) {
        if (f.match().matches(h, inPort, metadata)) {
          best = f;
          break;
        }
      }
    }
    for (FlowEntry f : t.others()) {
      if (best != null && f.priority() <= best.priority()) {
        break;
      }
      if (f.match().matches(h, inPort, metadata)) {
        return f;
      }
    }
    return best;
  }
}
