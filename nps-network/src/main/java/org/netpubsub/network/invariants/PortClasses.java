package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;

/**
 * A switch's in-ports grouped so that one pipeline run stands for every port of a group (stop 40: a
 * changed Camus switch's region was cut once per port, and only table 0's per-port entries tell its
 * ports apart). A run is made with the {@link #PHANTOM} in-port, which no entry and no output
 * names, its lookups made with the group's {@link #lookupPort}; its outcome for a real port is the
 * run's copies less those to that port (OpenFlow sends to the ingress port only by {@code IN_PORT},
 * and a flood skips it), those to the phantom (an {@code IN_PORT} output) sent to it. Nothing else
 * of a run depends on the in-port under the checker's policy (no select hash, no reserved ports).
 *
 * <p>Two ports are one group when the entries that match each of them by {@code in_port} are, with
 * {@code in_port} left out, the same entries in the same lookup order, none sharing its table and
 * priority with an entry that matches no in_port (their order against it would be their ages',
 * which differ). A port no entry names is in the group of the phantom itself.
 */
final class PortClasses {
  /** The in-port of a shared run: not a physical port, not a reserved one the interpreter reads. */
  static final long PHANTOM = OfPort.MAX;

  private final Map<Long, Long> lookupPort = new HashMap<>();

  /** An entry's part in a port's lookups, {@code in_port} left out. */
  private record Erased(int table, int priority, Match match, List<Instruction> instructions) {}

  PortClasses(SwitchTables t, Set<Long> ports) {
    Map<Long, List<SwitchTables.Stored>> byPort = new HashMap<>();
    boolean phantomNamed = false;
    for (SwitchTables.Stored s : t.portEntries()) {
      long p = s.entry().match().inPort();
      phantomNamed |= p == PHANTOM;
      byPort.computeIfAbsent(p, x -> new ArrayList<>()).add(s);
    }
    Comparator<SwitchTables.Stored> order =
        Comparator.comparingInt((SwitchTables.Stored s) -> s.entry().tableId())
            .thenComparing(s -> -s.entry().priority())
            .thenComparingLong(SwitchTables.Stored::age);
    Map<List<Erased>, Long> groups = new HashMap<>();
    groups.put(List.of(), PHANTOM);
    for (long port : ports) {
      List<SwitchTables.Stored> own = new ArrayList<>(byPort.getOrDefault(port, List.of()));
      if (phantomNamed) {
        lookupPort.put(port, port);
        continue;
      }
      List<Erased> sig = new ArrayList<>();
      boolean alone = false;
      own.sort(order);
      for (SwitchTables.Stored s : own) {
        FlowEntry f = s.entry();
        alone |= t.hasCommon(f.tableId(), f.priority());
        sig.add(
            new Erased(
                f.tableId(),
                f.priority(),
                f.match().toBuilder().clear("inPort").build(),
                f.instructions()));
      }
      lookupPort.put(port, alone ? port : groups.computeIfAbsent(sig, x -> port));
    }
  }

  /** The port whose lookups a shared run makes for this one (the phantom: no entry names it). */
  long lookupPort(long port) {
    Long p = lookupPort.get(port);
    return p == null ? port : p;
  }
}
