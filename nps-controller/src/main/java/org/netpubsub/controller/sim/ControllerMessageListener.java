package org.netpubsub.controller.sim;

/**
 * Told by a {@link SimulatedOpenFlowSwitch} of controller messages as they arrive, after the switch
 * handled them (also when it refused them). Runs on the switch's event loop: it must be quick and
 * must never block, or it delays the switch. An exception it throws is logged and ignored.
 */
public interface ControllerMessageListener {
  /** A FEATURES_REQUEST, answered: the controller is running its handshake. */
  default void featuresRequest() {}

  /** A BARRIER_REQUEST, answered (netpubsub's controller ends its handshake with one). */
  default void barrierRequest() {}

  /** A flow-stats request (a reconcile starts with one). */
  default void flowStatsRequest() {}

  /** An OFPT_FLOW_MOD. */
  default void flowMod() {}

  /** An OFPT_PACKET_OUT. */
  default void packetOut() {}
}
