package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one interpreter of an OpenFlow 1.3 pipeline (§5.1, as Open vSwitch executes it), shared by
 * the simulated switch and the invariant checker: from table 0 with metadata 0, the entry each
 * table's lookup gives, apply-actions at once, the action set at the end of the pipeline, groups on
 * copies of the packet. Where its users differ is the {@link PipelinePolicy}; what it reads is a
 * {@link Datapath}. Stateless between runs.
 */
public final class Pipeline {
  /** One packet's fate: the copies in the order they were sent, unsorted. */
  public record Outcome(List<Egress> egresses, boolean translationFailed, boolean missedTable0) {
    /** The whole packet was dropped: a resource limit was hit (groups nested too deep). */
    static final Outcome FAILED = new Outcome(List.of(), true, false);
  }

  private final PipelinePolicy policy;

  public Pipeline(PipelinePolicy policy) {
    this.policy = policy;
  }

  public PipelinePolicy policy() {
    return policy;
  }

  /**
   * Runs a packet entering by {@code inPort}; the switch's own choices where OpenFlow leaves one.
   */
  public Outcome run(Datapath datapath, long inPort, PacketHeaders headers) {
    return run(datapath, inPort, headers, Chooser.DETERMINISTIC);
  }

  /** Runs a packet, {@code chooser} deciding the select buckets ({@link PipelinePolicy} ONE). */
  Outcome run(Datapath datapath, long inPort, PacketHeaders headers, Chooser chooser) {
    Run r = new Run(datapath, inPort, headers, chooser);
    try {
      boolean missedTable0 = r.pipeline();
      return new Outcome(r.out, false, missedTable0);
    } catch (TranslationFailed e) {
      return Outcome.FAILED;
    }
  }

  private static final class TranslationFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TranslationFailed() {
      super(null, null, false, false);
    }
  }

  /** The state of one packet's trip. */
  private final class Run {
    private final Datapath d;
    private final long inPort;
    private final Chooser chooser;
    private final List<Egress> out = new ArrayList<>();

    /** The action set: one action per key; set-fields, group and output (OF1.3 §5.10). */
    private final Map<String, Action> actionSet = new LinkedHashMap<>();

    private PacketHeaders h;
    private long metadata;
    private int groupExecutions;

    Run(Datapath d, long inPort, PacketHeaders headers, Chooser chooser) {
      this.d = d;
      this.inPort = inPort;
      this.h = headers;
      this.chooser = chooser;
    }

    /** Runs the tables; true if table 0 had no entry for the packet. */
    boolean pipeline() {
      int table = 0;
      while (true) {
        FlowEntry f = d.lookup(table, h, inPort, metadata);
        if (f == null) {
          if (policy.tableMiss() == TableMissBehavior.EXECUTE_ACTION_SET) {
            executeActionSet();
          }
          return table == 0;
        }
        Integer next = null;
        for (Instruction i : f.instructions()) {
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
        if (next == null
            || (next <= table && policy.backwardGoto() == PipelinePolicy.BackwardGoto.END)) {
          executeActionSet();
          return false;
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
      boolean reserved = policy.reservedPorts() == PipelinePolicy.ReservedPorts.EGRESS;
      if (port == OfPort.IN_PORT) {
        emit(inPort);
      } else if (port == OfPort.ALL || port == OfPort.FLOOD) {
        for (long p : d.floodPorts()) {
          if (p != inPort && (reserved || p != OfPort.LOCAL)) {
            emit(p);
          }
        }
      } else if (port == OfPort.CONTROLLER || port == OfPort.LOCAL) {
        if (reserved && (port == OfPort.CONTROLLER || (port != inPort && d.hasPort(port)))) {
          emit(port);
        }
      } else if (port != inPort && d.hasPort(port)) {
        // Output to the ingress port needs IN_PORT (OF1.3 §4.5); a missing port drops the copy.
        emit(port);
      }
    }

    private void emit(long port) {
      out.add(new Egress(port, h));
    }

    private void group(long groupId, int depth) {
      if (depth >= policy.maxGroupDepth() || ++groupExecutions > policy.maxGroupExecutions()) {
        throw new TranslationFailed();
      }
      GroupEntry g = d.group(groupId);
      if (g == null) {
        return; // a bucket may name a deleted group; OVS ignores it
      }
      PacketHeaders saved = h;
      switch (g.type()) {
        case ALL -> {
          for (Bucket b : g.buckets()) {
            runBucket(b, saved, depth);
          }
        }
        case INDIRECT -> {
          if (!g.buckets().isEmpty()) {
            runBucket(g.buckets().get(0), saved, depth);
          }
        }
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
      if (policy.selectBuckets() == PipelinePolicy.SelectBuckets.EVERY_LIVE) {
        for (Bucket b : live) {
          runBucket(b, saved, depth);
        }
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
      if (b.watchPort() != OfPort.ANY && d.isLive(b.watchPort())) {
        return true;
      }
      if (b.watchGroup() == FlowMod.ANY_GROUP || depth >= 2 * policy.maxGroupDepth()) {
        return false;
      }
      GroupEntry watched = d.group(b.watchGroup());
      return watched != null && watched.buckets().stream().anyMatch(x -> alive(x, depth + 1));
    }
  }
}
