package org.netpubsub.controller.southbound;

import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortStatus;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFPort;

/**
 * Delivers one connected switch's events to the listener on the switch's ordered executor (never on
 * the event loop), translating the messages there; a failing listener is logged and counted.
 */
final class SwitchEvents {
  private static final System.Logger LOG = System.getLogger(SwitchEvents.class.getName());

  private final SwitchConnection connection;
  private final Executor executor;
  private final SouthboundListener listener;
  private final SouthboundMetrics metrics;
  private final long dpid;

  SwitchEvents(
      SwitchConnection connection,
      Executor executor,
      SouthboundListener listener,
      SouthboundMetrics metrics) {
    this.connection = connection;
    this.executor = executor;
    this.listener = listener;
    this.metrics = metrics;
    this.dpid = connection.dpid();
  }

  /** The switch's ordered executor: listener calls and future completions run here. */
  Executor executor() {
    return executor;
  }

  void connected() {
    fire(l -> l.switchConnected(connection));
  }

  void error(SwitchError e) {
    fire(l -> l.error(dpid, e));
  }

  /** Packet-in, port-status, flow-removed (event loop); other messages are ignored. */
  void asynchronous(OFMessage m) {
    switch (m) {
      case OFPacketIn pi -> fire(l -> packetIn(l, pi));
      case OFPortStatus ps -> {
        PortInfo port = OpenFlowTranslator.fromOpenFlow(ps.getDesc());
        SouthboundListener.PortReason reason =
            SouthboundListener.PortReason.valueOf(ps.getReason().name());
        connection.portChanged(port, reason); // now, so that ports() is current for the listener
        fire(l -> l.portStatus(dpid, port, reason));
      }
      case OFFlowRemoved fr -> fire(l -> l.flowRemoved(dpid, OpenFlowTranslator.fromOpenFlow(fr)));
      default -> LOG.log(System.Logger.Level.DEBUG, "{0}: ignored {1}", connection, m.getType());
    }
  }

  private void packetIn(SouthboundListener l, OFPacketIn pi) {
    OFPort in = pi.getMatch().get(MatchField.IN_PORT);
    SouthboundListener.PacketInReason reason =
        switch (pi.getReason()) {
          case NO_MATCH -> SouthboundListener.PacketInReason.NO_MATCH;
          case ACTION -> SouthboundListener.PacketInReason.ACTION;
          case INVALID_TTL -> SouthboundListener.PacketInReason.INVALID_TTL;
          default -> SouthboundListener.PacketInReason.OTHER;
        };
    l.packetIn(
        dpid,
        in == null ? 0 : MatchTranslator.port(in),
        reason,
        pi.getTableId().getValue() & 0xff,
        pi.getCookie().getValue(),
        pi.getData());
  }

  /** Calls the listener on the switch's executor; failures are logged and counted. */
  void fire(Consumer<SouthboundListener> call) {
    executor.execute(
        () -> {
          try {
            call.accept(listener);
          } catch (RuntimeException | Error e) {
            metrics.listenerFailed();
            LOG.log(System.Logger.Level.WARNING, connection + ": listener failed", e);
          }
        });
  }
}
