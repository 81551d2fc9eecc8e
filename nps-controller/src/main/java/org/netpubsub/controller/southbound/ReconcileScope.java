package org.netpubsub.controller.southbound;

import java.util.function.Predicate;
import org.netpubsub.network.openflow.FlowEntry;

/**
 * What a reconcile manages on a switch: the flows {@code flows} selects, and the groups when {@code
 * groups} is set. Everything else on the switch is someone else's (another controller process, or
 * another writer in this one) and is left exactly as it is, whatever the desired state says.
 */
public record ReconcileScope(Predicate<FlowEntry> flows, boolean groups) {
  /** Every flow and every group: the switch ends with exactly the desired state. */
  public static final ReconcileScope EVERYTHING = new ReconcileScope(f -> true, true);

  public ReconcileScope {
    if (flows == null) {
      throw new IllegalArgumentException("a flow predicate is required");
    }
  }

  /** The flows {@code p} selects, and no group. */
  public static ReconcileScope flowsOnly(Predicate<FlowEntry> p) {
    return new ReconcileScope(p, false);
  }
}
