package org.netpubsub.controller.southbound;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFHelloElem;
import org.projectfloodlight.openflow.protocol.OFHelloElemVersionbitmap;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;
import org.projectfloodlight.openflow.types.U32;

/**
 * The controller's side of the OpenFlow 1.3 handshake of one connection (event loop only): HELLO
 * with the version bitmap {1.3} → (the switch's HELLO: negotiate, else HELLO_FAILED and close) →
 * FEATURES_REQUEST (datapath id, tables) → PORT_DESC request (all parts) → SET_CONFIG
 * (miss_send_len = no buffer) + BARRIER → done when the barrier is answered.
 */
final class Handshake {
  /** OFPCML_NO_BUFFER: packet-ins carry the whole frame. */
  static final int MISS_SEND_LEN_NO_BUFFER = 0xffff;

  private enum Step {
    HELLO,
    FEATURES,
    PORTS,
    CONFIG,
    DONE
  }

  /** What the handshake learned. */
  record Result(long dpid, int numTables, List<PortInfo> ports) {}

  private final SwitchConnection connection;
  private final List<PortInfo> ports = new ArrayList<>();
  private Step step = Step.HELLO;
  private long featuresXid;
  private long portDescXid;
  private long barrierXid;
  private long dpid;
  private int numTables;

  Handshake(SwitchConnection connection) {
    this.connection = connection;
  }

  void start() {
    OFHelloElem bitmap =
        OpenFlowTranslator.OF13
            .buildHelloElemVersionbitmap()
            .setBitmaps(List.of(U32.of(VersionNegotiation.OUR_BITMAP)))
            .build();
    connection.send(
        OpenFlowTranslator.OF13
            .buildHello()
            .setXid(connection.nextXid())
            .setElements(List.of(bitmap))
            .build());
  }

  /** A frame of another version: a peer's HELLO is negotiated, anything else is fatal. */
  void foreignVersion(ForeignVersionFrame f) {
    if (step == Step.HELLO && f.isHello()) {
      if (VersionNegotiation.agrees(f.version(), f.versionBitmap())) {
        helloAgreed();
      } else {
        helloFailed("switch offers OpenFlow wire version " + f.version() + ", not 1.3 (4)");
      }
      return;
    }
    connection.sendAndClose(
        ErrorTranslator.toOpenFlow(
            OpenFlowTranslator.OF13,
            ErrorTranslator.BAD_REQUEST,
            ErrorTranslator.BAD_VERSION,
            f.xid(),
            new byte[0]),
        DisconnectReason.WRONG_VERSION);
  }

  /**
   * An OpenFlow 1.3 message before the handshake is done; the result once the last answer came,
   * else null. Echo requests are answered by the caller.
   */
  Result message(OFMessage m) {
    switch (step) {
      case HELLO -> hello(m);
      case FEATURES -> {
        OFFeaturesReply r = expect(m, OFFeaturesReply.class, featuresXid);
        dpid = r.getDatapathId().getLong();
        numTables = r.getNTables() & 0xff;
        step = Step.PORTS;
        portDescXid = connection.nextXid();
        connection.send(
            OpenFlowTranslator.OF13.buildPortDescStatsRequest().setXid(portDescXid).build());
      }
      case PORTS -> {
        OFPortDescStatsReply r = expect(m, OFPortDescStatsReply.class, portDescXid);
        r.getEntries().forEach(p -> ports.add(OpenFlowTranslator.fromOpenFlow(p)));
        if (!r.getFlags().contains(OFStatsReplyFlags.REPLY_MORE)) {
          step = Step.CONFIG;
          connection.send(
              OpenFlowTranslator.OF13
                  .buildSetConfig()
                  .setXid(connection.nextXid())
                  .setFlags(Set.of())
                  .setMissSendLen(MISS_SEND_LEN_NO_BUFFER)
                  .build());
          barrierXid = connection.nextXid();
          connection.send(OpenFlowTranslator.OF13.buildBarrierRequest().setXid(barrierXid).build());
        }
      }
      case CONFIG -> {
        expect(m, org.projectfloodlight.openflow.protocol.OFBarrierReply.class, barrierXid);
        step = Step.DONE;
        return new Result(dpid, numTables, List.copyOf(ports));
      }
      case DONE -> throw new IllegalStateException("handshake already done");
    }
    return null;
  }

  private void hello(OFMessage m) {
    if (!(m instanceof OFHello h)) {
      throw new ProtocolViolationException(
          DisconnectReason.PROTOCOL_VIOLATION, "expected HELLO first, got " + m.getType());
    }
    OptionalLong bitmap = OptionalLong.empty();
    for (OFHelloElem e : h.getElements()) {
      if (e instanceof OFHelloElemVersionbitmap b && !b.getBitmaps().isEmpty()) {
        bitmap = OptionalLong.of(b.getBitmaps().get(0).getValue());
      }
    }
    if (VersionNegotiation.agrees(VersionNegotiation.OF13, bitmap)) {
      helloAgreed();
    } else {
      helloFailed("switch's version bitmap lacks OpenFlow 1.3");
    }
  }

  private void helloAgreed() {
    step = Step.FEATURES;
    featuresXid = connection.nextXid();
    connection.send(OpenFlowTranslator.OF13.buildFeaturesRequest().setXid(featuresXid).build());
  }

  private void helloFailed(String why) {
    connection.sendAndClose(
        ErrorTranslator.toOpenFlow(
            OpenFlowTranslator.OF13,
            ErrorTranslator.HELLO_FAILED,
            ErrorTranslator.HELLO_INCOMPATIBLE,
            0,
            why.getBytes(StandardCharsets.US_ASCII)),
        DisconnectReason.HELLO_FAILED);
  }

  /** The awaited answer, or a protocol violation (an error answer included). */
  private <T extends OFMessage> T expect(OFMessage m, Class<T> type, long xid) {
    if (m instanceof OFErrorMsg e) {
      SwitchError err = OpenFlowTranslator.fromOpenFlow(e);
      throw new ProtocolViolationException(
          err.type() == ErrorTranslator.HELLO_FAILED
              ? DisconnectReason.HELLO_FAILED
              : DisconnectReason.PROTOCOL_VIOLATION,
          "error during the handshake (" + step + "): " + err);
    }
    if (!type.isInstance(m) || m.getXid() != xid) {
      throw new ProtocolViolationException(
          DisconnectReason.PROTOCOL_VIOLATION,
          "during the handshake ("
              + step
              + ") expected "
              + type.getSimpleName()
              + " xid "
              + xid
              + ", got "
              + m.getType()
              + " xid "
              + m.getXid());
    }
    return type.cast(m);
  }
}
