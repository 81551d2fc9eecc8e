package org.netpubsub.controller.southbound;

import org.netpubsub.network.openflow.FlowRemoved;

/**
 * Receives the events of every switch. Threading: each switch (datapath id) has one ordered
 * executor, so one switch's events arrive one at a time in the order the switch sent them (its
 * disconnect after its last message, a reconnect's {@code switchConnected} after the old
 * connection's {@code switchDisconnected}); different switches' events run concurrently. Calls
 * never run on a Netty event loop, so a listener may block; it then delays only its own switch's
 * later events. An exception thrown by a listener is logged and counted, never fatal.
 */
public interface SouthboundListener {
  /** ofp_port_reason. */
  enum PortReason {
    ADD,
    DELETE,
    MODIFY
  }

  /** ofp_packet_in_reason; {@code OTHER} for the vendor reasons openflowj knows. */
  enum PacketInReason {
    NO_MATCH,
    ACTION,
    INVALID_TTL,
    OTHER
  }

  /** The handshake finished: the switch speaks OpenFlow 1.3 and its ports are known. */
  default void switchConnected(SwitchHandle sw) {}

  /** A connected switch's connection ended. */
  default void switchDisconnected(long dpid, DisconnectReason reason) {}

  /**
   * The switch's tables were brought to the desired state after it connected (only if the server
   * reconciles on connect: {@link OpenFlowServer.Builder#reconcileOnConnect}).
   */
  default void switchReconciled(long dpid, ReconcileResult result) {}

  /** Reconciling a switch after it connected failed (the cause says why). */
  default void reconcileFailed(long dpid, Throwable cause) {}

  default void portStatus(long dpid, PortInfo port, PortReason reason) {}

  /** A packet sent to the controller; {@code frame} is the whole frame (no buffering). */
  default void packetIn(
      long dpid, long inPort, PacketInReason reason, int tableId, long cookie, byte[] frame) {}

  default void flowRemoved(long dpid, FlowRemoved removed) {}

  /** An OFPT_ERROR that answers no pending request of this controller. */
  default void error(long dpid, SwitchError error) {}
}
