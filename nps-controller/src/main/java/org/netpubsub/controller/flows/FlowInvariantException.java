package org.netpubsub.controller.flows;

import org.netpubsub.network.invariants.Violation;
import org.netpubsub.network.layout.Owner;

/**
 * A batch the flow service refused because its final state breaks an invariant: the packet class
 * and the path that loops or ends in a black hole ({@link Violation}).
 */
public final class FlowInvariantException extends FlowRefusedException {
  private static final long serialVersionUID = 1L;

  private final transient Violation violation;

  public FlowInvariantException(Owner owner, Violation violation) {
    super(owner, owner + "'s batch refused by the invariant checker: " + violation);
    this.violation = violation;
  }

  public Violation violation() {
    return violation;
  }
}
