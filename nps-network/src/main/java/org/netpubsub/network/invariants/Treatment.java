package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;

/** One switch's treatment of one packet (OpenFlow 1.3 §5, as Open vSwitch executes it). */
final class Treatment {
  record Copy(long port, PacketHeaders headers) {}

  record Result(List<Copy> copies, boolean missedTable0) {}

  private static final int MAX_GROUP_DEPTH = 64;
  private static final int MAX_GROUP_EXECUTIONS = 4096;

  private final SwitchTables t;
  private final Set<Long> ports;
  private final long inPort;
  private final List<Copy> out = new ArrayList<>();
  private final Map<String, Action> actionSet = new LinkedHashMap<>();
  private PacketHeaders h;
  private int groupExecutions;

  Treatment(SwitchTables t, Set<Long> ports, long inPort) {
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

  private static final class TooDeep extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooDeep() {
      super(null, null, false, false);
    }
  }
}
