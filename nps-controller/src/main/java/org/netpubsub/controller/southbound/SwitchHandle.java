package org.netpubsub.controller.southbound;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.openflow.GroupEntry;

/**
 * A connected OpenFlow 1.3 switch. Every method may be called from any thread and never blocks;
 * futures complete on the switch's ordered callback executor (never on a Netty event loop), so a
 * dependent stage may block. After a disconnect, new requests fail with {@link
 * SwitchDisconnectedException}, and so do requests still pending.
 */
public interface SwitchHandle {
  /** The datapath id from the features reply. */
  long dpid();

  /** The number of flow tables the switch has. */
  int numTables();

  /** The ports: from the handshake's port description, kept current by port-status messages. */
  List<PortInfo> ports();

  SocketAddress remoteAddress();

  boolean isConnected();

  /**
   * Sends the messages, then a barrier; completes when the barrier's reply comes. Fails with {@link
   * BatchFailedException} if the switch answered OFPT_ERROR to any message of the batch (switches
   * answer errors before the barrier reply: a barrier finishes every earlier message), with {@link
   * SouthboundTimeoutException} after the barrier timeout, or with {@link
   * SwitchDisconnectedException}.
   */
  CompletableFuture<BatchResult> apply(List<SwitchMod> batch);

  /** {@link #apply} of flow-mods only. */
  default CompletableFuture<BatchResult> applyFlows(List<FlowMod> batch) {
    return apply(SwitchMod.flows(batch));
  }

  /**
   * Sends a packet-out of a whole frame, as if it entered by {@code inPort} ({@link
   * org.netpubsub.network.openflow.OfPort#CONTROLLER} for none). OpenFlow acknowledges nothing: the
   * future completes when the message is written to the socket.
   */
  CompletableFuture<Void> packetOut(long inPort, List<Action> actions, byte[] frame);

  /** Every flow of every table (a flow-stats multipart request, all parts aggregated). */
  CompletableFuture<List<FlowEntry>> flowStats();

  /**
   * The flows whose cookie is {@code cookie}, with their packet counters (a flow-stats request
   * filtered by cookie); unsupported by handles that keep no counters.
   */
  default CompletableFuture<List<FlowStats>> flowCounters(long cookie) {
    return CompletableFuture.failedFuture(new UnsupportedOperationException("flow counters"));
  }

  /** Every group (a group-desc multipart request). */
  CompletableFuture<List<GroupEntry>> groupDesc();

  /** The ports, freshly asked (a port-desc multipart request). */
  CompletableFuture<List<PortInfo>> portDescriptions();

  /** Every port's traffic counters (a port-stats multipart request for all ports). */
  CompletableFuture<List<PortCounters>> portStats();

  /** Closes the connection; the switch will normally reconnect. */
  void disconnect();

  /** {@code 00:00:00:00:00:00:00:2a}. */
  default String dpidString() {
    return SouthboundException.dpidString(dpid());
  }
}
