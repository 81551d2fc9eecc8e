package org.netpubsub.controller.flows;

import org.netpubsub.network.layout.Owner;

/**
 * A batch refused by the flow service: a mod outside its owner's layout space, or ({@link
 * FlowInvariantException}) a batch that would loop or black-hole traffic.
 */
public class FlowRefusedException extends IllegalArgumentException {
  private final Owner owner;

  public FlowRefusedException(Owner owner, long dpid, Object mod) {
    super(
        "switch "
            + dpid
            + ": "
            + mod
            + " is outside "
            + owner
            + "'s space of the switch layout (SwitchLayout)");
    this.owner = owner;
  }

  /** A refusal with its own reason (the invariant checker's). */
  protected FlowRefusedException(Owner owner, String message) {
    super(message);
    this.owner = owner;
  }

  public Owner owner() {
    return owner;
  }
}
