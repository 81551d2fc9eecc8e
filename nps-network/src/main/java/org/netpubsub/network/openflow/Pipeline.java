package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongPredicate;

/**
 * Runs one packet through the simulated switch's tables and groups (OpenFlow 1.3 §5.1, as Open
 * vSwitch executes it): from table 0 with metadata 0, apply-actions at once, the action set at the
 * end of the pipeline, groups on copies of the packet.
 */
final class Pipeline {
  /** Open vSwitch fails a translation that nests more groups than this (observed on OVS 3.1). */
  static final int MAX_GROUP_DEPTH = 64;

  /**
   * The simulated switch fails a translation that executes more groups than this in total (a bound
   * on group graphs that fan out exponentially; OVS truncates them at 64 kB of actions).
   */
  static final int MAX_GROUP_EXECUTIONS = 4096;

  private final SwitchConfig config;
  private final FlowTable[] tables;
  private final Map<Long, GroupEntry> groups;
  private final LongPredicate portLive;

  Pipeline(
      SwitchConfig config, FlowTable[] tables, Map<Long, GroupEntry> groups, LongPredicate live) {
    this.config = config;
    this.tables = tables;
    this.groups = groups;
    this.portLive = live;
  }

  /** The forwarding of one packet; {@code hits} receives every entry the packet matched. */
  Forwarding run(long inPort, PacketHeaders headers, Chooser chooser, List<StoredFlow> hits) {
    Run r = new Run(inPort, headers, chooser, hits);
    try {
      r.pipeline();
    } catch (TranslationFailed e) {
      return Forwarding.FAILED;
    }
    return Forwarding.of(r.out);
  }

  private static final class TranslationFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TranslationFailed() {
      super(null, null, false, false);
    }
  }

  /** The state of one packet's trip. */
  private final class Run {
    private final long inPort;
    private final Chooser chooser;
    private final List<StoredFlow> hits;
    private final List<Egress> out = new ArrayList<>();

    /** The action set: one action per key; set-fields, group and output (OF1.3 §5.10). */
    private final Map<String, Action> actionSet = new LinkedHashMap<>();

    private PacketHeaders h;
    private long metadata;
    private int groupExecutions;

    Run(long inPort, PacketHeaders headers, Chooser chooser, List<StoredFlow> hits) {
      this.inPort = inPort;
      this.h = headers;
      this.chooser = chooser;
      this.hits = hits;
    }

    void pipeline() {
      int table = 0;
      while (true) {
        List<StoredFlow> candidates = tables[table].lookup(h, inPort, metadata);
        if (candidates.isEmpty()) {
          if (config.missBehavior() == TableMissBehavior.EXECUTE_ACTION_SET) {
            executeActionSet();
          }
          return;
        }
        StoredFlow f =
            candidates.get(candidates.size() == 1 ? 0 : chooser.choose(candidates.size(), 0));
        hits.add(f);
        Integer next = null;
        for (Instruction i : f.entry.instructions()) {
          switch (i) {
            case Instruction.ApplyActions a -> a.actions().forEach(x -> execute(x, 0));
            case Instruction.ClearActions c -> actionSet.clear();
            case Instruction.WriteActions w ->
                w.actions().forEach(x -> actionSet.put(x.actionSetKey(), x));
            case Instruction.WriteMetadata m ->
                metadata = (metadata & ~m.mask()) | (m.value() & m.mask());
            case Instruction.GotoTable g -> next = g.tableId();
          }
        }
        if (next == null) {
          executeActionSet();
          return;
        }
        table = next;
      }
    }

    /** OF1.3 §5.10: every set-field, then the group if any, else the output if any. */
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

    /** One action; {@code depth} is the number of groups the packet is inside. */
    private void execute(Action a, int depth) {
      switch (a) {
        case Action.Output o -> output(o.port());
        case Action.Group g -> group(g.groupId(), depth);
        case Action.SetField s -> h = s.applyTo(h);
      }
    }

    private void output(long port) {
      if (port == OfPort.IN_PORT) {
        emit(inPort);
      } else if (port == OfPort.ALL || port == OfPort.FLOOD) {
        TreeSet<Long> all = new TreeSet<>(config.ports());
        if (config.localPort()) {
          all.add(OfPort.LOCAL);
        }
        all.stream().filter(p -> p != inPort).forEach(this::emit);
      } else if (port == OfPort.CONTROLLER) {
        emit(OfPort.CONTROLLER);
      } else if (port != inPort && config.hasPort(port)) {
        // Output to the ingress port needs IN_PORT (OF1.3 §4.5); a missing port drops the copy.
        emit(port);
      }
    }

    private void emit(long port) {
      out.add(new Egress(port, h));
    }

    private void group(long groupId, int depth) {
      if (depth >= MAX_GROUP_DEPTH || ++groupExecutions > MAX_GROUP_EXECUTIONS) {
        throw new TranslationFailed();
      }
      GroupEntry g = groups.get(groupId);
      if (g == null) {
        return; // a bucket may name a deleted group; OVS ignores it, and so does this switch
      }
      PacketHeaders saved = h;
      switch (g.type()) {
        case ALL -> {
          for (Bucket b : g.buckets()) {
            runBucket(b, saved, depth);
          }
        }
        case INDIRECT -> runBucket(g.buckets().get(0), saved, depth);
        case FF -> {
          for (Bucket b : g.buckets()) {
            if (alive(b, 0)) {
              runBucket(b, saved, depth);
              break;
            }
          }
        }
        case SELECT -> select(g, saved, depth);
      }
      h = saved; // a bucket's rewrites do not outlive it
    }

    private void select(GroupEntry g, PacketHeaders saved, int depth) {
      List<Bucket> live = new ArrayList<>();
      for (Bucket b : g.buckets()) {
        if (b.weight() > 0 && alive(b, 0)) {
          live.add(b);
        }
      }
      if (live.isEmpty()) {
        return;
      }
      int[] weights = live.stream().mapToInt(Bucket::weight).toArray();
      int preferred = SelectHash.pick(saved, weights);
      int pick = live.size() == 1 ? 0 : chooser.choose(live.size(), preferred);
      runBucket(live.get(pick), saved, depth);
    }

    private void runBucket(Bucket b, PacketHeaders saved, int depth) {
      h = saved;
      for (Action a : b.actions()) {
        execute(a, depth + 1);
      }
    }

    /** OVS's bucket_is_alive: no watch, or a live watched port, or a live watched group. */
    private boolean alive(Bucket b, int depth) {
      if (!b.hasLiveness()) {
        return true;
      }
      if (b.watchPort() != OfPort.ANY
          && config.hasPort(b.watchPort())
          && portLive.test(b.watchPort())) {
        return true;
      }
      if (b.watchGroup() == FlowMod.ANY_GROUP || depth >= 2 * MAX_GROUP_DEPTH) {
        return false;
      }
      GroupEntry watched = groups.get(b.watchGroup());
      return watched != null && watched.buckets().stream().anyMatch(x -> alive(x, depth + 1));
    }
  }
}
