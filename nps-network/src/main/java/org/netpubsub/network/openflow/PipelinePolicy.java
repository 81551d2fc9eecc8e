package org.netpubsub.network.openflow;

/**
 * Where the users of the one {@link Pipeline} interpreter differ on purpose: the simulated switch
 * executes a packet as Open vSwitch 3.1 does, the invariant checker asks where a packet may go next
 * over the topology's links. Everything else (lookup order, instructions, the action set, groups,
 * set-fields, outputs to ports) is one code path.
 *
 * @param tableMiss what a miss does with the action set written so far
 * @param reservedPorts whether outputs to CONTROLLER and LOCAL are copies of the outcome
 * @param backwardGoto what a goto to the same or an earlier table does
 * @param selectBuckets which buckets of a select group run
 * @param maxGroupDepth a group action met while this many groups are nested fails the packet
 * @param maxGroupExecutions more group executions than this in one packet fail it
 */
public record PipelinePolicy(
    TableMissBehavior tableMiss,
    ReservedPorts reservedPorts,
    BackwardGoto backwardGoto,
    SelectBuckets selectBuckets,
    int maxGroupDepth,
    int maxGroupExecutions) {

  /** Open vSwitch fails a translation that nests more groups than this (observed on OVS 3.1). */
  public static final int MAX_GROUP_DEPTH = 64;

  /**
   * A translation that executes more groups than this in total fails (a bound on group graphs that
   * fan out exponentially; OVS truncates them at 64 kB of actions).
   */
  public static final int MAX_GROUP_EXECUTIONS = 4096;

  /** Outputs to the reserved ports CONTROLLER and LOCAL. */
  public enum ReservedPorts {
    /**
     * They are copies like any other (LOCAL only if the switch has it; ALL and FLOOD include it).
     */
    EGRESS,
    /** The copy ends there: nothing is sent (the checker: no link leaves by them). */
    END
  }

  /** A goto-table instruction naming the entry's own table or an earlier one. */
  public enum BackwardGoto {
    /**
     * Followed as written (the switch refuses such a flow-mod; only a MODIFY of all tables can
     * still write one).
     */
    FOLLOW,
    /** The pipeline ends there and the action set runs, as without a goto. */
    END
  }

  /** Which buckets of a select group run. */
  public enum SelectBuckets {
    /** One live weighted bucket, the switch's (header hash) or its chooser's. */
    ONE,
    /** Every live weighted bucket, each on its own copy: every bucket the switch may choose. */
    EVERY_LIVE
  }

  /** The simulated switch: Open vSwitch 3.1 as the differential test observes it. */
  public static PipelinePolicy simulatedSwitch(TableMissBehavior tableMiss) {
    return new PipelinePolicy(
        tableMiss,
        ReservedPorts.EGRESS,
        BackwardGoto.FOLLOW,
        SelectBuckets.ONE,
        MAX_GROUP_DEPTH,
        MAX_GROUP_EXECUTIONS);
  }

  /**
   * The invariant checker: the switch's defaults, except that the controller and the local port end
   * a copy, a backward goto ends the pipeline (a walk never loops inside one switch), and a select
   * group runs every bucket the switch may choose.
   */
  public static final PipelinePolicy INVARIANT_CHECKER =
      new PipelinePolicy(
          TableMissBehavior.EXECUTE_ACTION_SET,
          ReservedPorts.END,
          BackwardGoto.END,
          SelectBuckets.EVERY_LIVE,
          MAX_GROUP_DEPTH,
          MAX_GROUP_EXECUTIONS);

  public PipelinePolicy {
    if (tableMiss == null || reservedPorts == null || backwardGoto == null) {
      throw new IllegalArgumentException("tableMiss, reservedPorts and backwardGoto are required");
    }
    if (selectBuckets == null) {
      throw new IllegalArgumentException("selectBuckets is required");
    }
    if (maxGroupDepth < 1 || maxGroupExecutions < 1) {
      throw new IllegalArgumentException(
          "maxGroupDepth and maxGroupExecutions must be positive: "
              + maxGroupDepth
              + ", "
              + maxGroupExecutions);
    }
  }
}
