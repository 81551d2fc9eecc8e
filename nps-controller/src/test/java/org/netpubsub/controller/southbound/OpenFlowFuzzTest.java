package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Example;
import org.netpubsub.content.fuzz.Fuzz;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * Fuzz target: the controller's OpenFlow message handling. The bytes go (1) through {@link
 * OpenFlowFrameDecoder} alone: every frame decodes or is refused with a {@link
 * ProtocolViolationException}, and a decoded message writes back to bytes that decode and write
 * back to themselves; and (2) to a switch that has just completed its handshake, through the
 * controller's whole pipeline (decoder, {@link SwitchConnection}): whatever it sends, the
 * connection is kept or closed for a protocol reason, never for an internal error (an exception
 * other than the typed ones).
 */
public class OpenFlowFuzzTest {
  private static final OFFactory F = OpenFlowTranslator.OF13;
  private static final NettyOpenFlowServer SERVER =
      (NettyOpenFlowServer)
          OpenFlowServer.builder().port(0).listener(new RecordingListener()).build();
  private static final AtomicLong DPIDS = new AtomicLong(1);

  public static void fuzzerTestOneInput(byte[] data) throws OFParseError {
    accept(data);
  }

  static boolean accept(byte[] data) throws OFParseError {
    boolean decoded = false;
    EmbeddedChannel frames = new EmbeddedChannel(new OpenFlowFrameDecoder(0xffff));
    refusedTyped(() -> frames.writeInbound(Unpooled.wrappedBuffer(data)));
    for (Object o; (o = frames.readInbound()) != null; ) {
      if (o instanceof OFMessage m) {
        // openflowj writes some fields lossily (a port name's non-ASCII bytes become '?'), so the
        // round trip is checked from the first re-encoding: it must be a fixed point.
        byte[] once = array(m);
        OFMessage back = OFFactories.getGenericReader().readFrom(Unpooled.wrappedBuffer(once));
        assertThat(array(back)).isEqualTo(once);
        decoded = true;
      }
    }
    refusedTyped(frames::finishAndReleaseAll); // the bytes left are decoded at the end too

    long internal = SERVER.metrics().disconnects(DisconnectReason.INTERNAL_ERROR);
    EmbeddedChannel sw = connectedSwitch(DPIDS.getAndIncrement());
    sw.writeInbound(Unpooled.wrappedBuffer(data)); // SwitchConnection handles every exception
    sw.finishAndReleaseAll();
    assertThat(SERVER.metrics().disconnects(DisconnectReason.INTERNAL_ERROR)).isEqualTo(internal);
    return decoded;
  }

  private static void refusedTyped(Runnable decoding) {
    try {
      decoding.run();
    } catch (DecoderException e) {
      assertThat(e.getCause()).isInstanceOf(ProtocolViolationException.class);
    }
  }

  /** A channel through the controller's pipeline, past the handshake as a switch {@code dpid}. */
  private static EmbeddedChannel connectedSwitch(long dpid) {
    EmbeddedChannel ch =
        new EmbeddedChannel(
            new OpenFlowFrameDecoder(0xffff),
            OpenFlowMessageEncoder.INSTANCE,
            new SwitchConnection(SERVER));
    ch.readOutbound(); // HELLO
    ch.writeInbound(bytes(F.buildHello().setXid(1).build()));
    long features = xid(ch.readOutbound());
    ch.writeInbound(
        bytes(
            F.buildFeaturesReply()
                .setXid(features)
                .setDatapathId(DatapathId.of(dpid))
                .setNTables((short) 4)
                .setCapabilities(Set.of())
                .build()));
    long ports = xid(ch.readOutbound());
    ch.writeInbound(
        bytes(
            F.buildPortDescStatsReply()
                .setXid(ports)
                .setEntries(List.of(OpenFlowTranslator.toOpenFlow(new PortInfo(1, "p1", 1, true))))
                .build()));
    ch.readOutbound(); // SET_CONFIG
    long barrier = xid(ch.readOutbound());
    ch.writeInbound(bytes(F.buildBarrierReply().setXid(barrier).build()));
    assertThat(SERVER.switchHandle(dpid)).as("handshake of %s", dpid).isPresent();
    for (Object o; (o = ch.readOutbound()) != null; ) {
      io.netty.util.ReferenceCountUtil.release(o);
    }
    return ch;
  }

  private static long xid(Object outbound) {
    ByteBuf b = (ByteBuf) outbound;
    long xid = b.getUnsignedInt(b.readerIndex() + 4);
    b.release();
    return xid;
  }

  private static ByteBuf bytes(OFMessage m) {
    ByteBuf b = Unpooled.buffer();
    m.writeTo(b);
    return b;
  }

  private static byte[] array(OFMessage... messages) {
    ByteBuf b = Unpooled.buffer();
    for (OFMessage m : messages) {
      m.writeTo(b);
    }
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    return out;
  }

  static List<byte[]> seeds() {
    List<byte[]> out = new ArrayList<>();
    OFMessage packetIn =
        F.buildPacketIn()
            .setXid(0)
            .setBufferId(OFBufferId.NO_BUFFER)
            .setTotalLen(3)
            .setReason(OFPacketInReason.NO_MATCH)
            .setTableId(TableId.of(0))
            .setCookie(U64.of(0))
            .setMatch(F.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(1)).build())
            .setData(new byte[] {1, 2, 3})
            .build();
    OFMessage portStatus =
        F.buildPortStatus()
            .setXid(0)
            .setReason(OFPortReason.MODIFY)
            .setDesc(OpenFlowTranslator.toOpenFlow(new PortInfo(2, "p2", 2, false)))
            .build();
    out.add(array(packetIn));
    out.add(array(portStatus, F.buildEchoRequest().setXid(7).build()));
    out.add(array(F.buildEchoReply().setXid(9).build(), F.buildBarrierReply().setXid(3).build()));
    out.add(array(F.buildHello().setXid(1).build()));
    out.add(
        array(
            F.errorMsgs()
                .buildBadRequestErrorMsg()
                .setXid(5)
                .setCode(org.projectfloodlight.openflow.protocol.OFBadRequestCode.BAD_TYPE)
                .build()));
    return out;
  }

  @Example
  void everyByteStreamIsHandledOrRefusedTyped() throws OFParseError {
    try {
      Fuzz.run("openflow", OpenFlowFuzzTest::accept, seeds(), 400);
    } finally {
      SERVER.close();
    }
  }
}
