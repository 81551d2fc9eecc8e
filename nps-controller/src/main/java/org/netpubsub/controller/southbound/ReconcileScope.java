package org.netpubsub.controller.southbound;

import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.netpubsub.network.openflow.FlowEntry;

/**
 * What a reconcile manages on a switch: the flows {@code flows} selects, and the groups while
 * {@code managesGroups} says so (asked at each reconcile: in a cluster, only the process that
 * writes the multicast state manages groups). Everything else on the switch is someone else's
 * (another controller process, or another writer in this one) and is left exactly as it is,
 * whatever the desired state says.
 */
public record ReconcileScope(Predicate<FlowEntry> flows, BooleanSupplier managesGroups) {
  /** Every flow and every group: the switch ends with exactly the desired state. */
  public static final ReconcileScope EVERYTHING = new ReconcileScope(f -> true, true);

  public ReconcileScope {
    if (flows == null || managesGroups == null) {
      throw new IllegalArgumentException("a flow predicate and a groups answer are required");
    }
  }

  /** The flows {@code flows} selects, and the groups if {@code groups}. */
  public ReconcileScope(Predicate<FlowEntry> flows, boolean groups) {
    this(flows, () -> groups);
  }

  /** Whether this reconcile manages the groups. */
  public boolean groups() {
    return managesGroups.getAsBoolean();
  }

  /** The flows {@code p} selects, and no group. */
  public static ReconcileScope flowsOnly(Predicate<FlowEntry> p) {
    return new ReconcileScope(p, false);
  }
}
