package org.netpubsub.controller.sim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.controller.southbound.ErrorTranslator;
import org.netpubsub.controller.southbound.ForeignVersionFrame;
import org.netpubsub.controller.southbound.OpenFlowTranslator;
import org.netpubsub.controller.southbound.PortInfo;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.openflow.FlowRemoved;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.OpenFlowError;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFCapabilities;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesRequest;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupMod;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.OFPortStatsRequest;
import org.projectfloodlight.openflow.protocol.OFSetConfig;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;

/** The protocol side of one {@link SimulatedOpenFlowSwitch} connection (event loop only). */
final class SimSwitchHandler extends ChannelInboundHandlerAdapter {
  private static final System.Logger LOG = System.getLogger(SimSwitchHandler.class.getName());
  private static final OFFactory F = OpenFlowTranslator.OF13;

  /** The spec's minimum of the request carried in an error's data. */
  private static final int ERROR_DATA_BYTES = 64;

  private final SimulatedOpenFlowSwitch sw;
  private ChannelHandlerContext ctx;
  private ReplyQueue replies;
  // Netty completes a connect's future before it fires channelActive: whoever sends through this
  // handler (packet-ins from a test) must wait for this instead, or find ctx still null
  private final CompletableFuture<Void> active = new CompletableFuture<>();
  private long xid = 0x10000000L;

  SimSwitchHandler(SimulatedOpenFlowSwitch sw) {
    this.sw = sw;
  }

  /** Completes once the channel is active and the handler can send. */
  CompletableFuture<Void> active() {
    return active;
  }

  @Override
  public void channelActive(ChannelHandlerContext c) {
    ctx = c;
    replies = new ReplyQueue(c.channel(), sw.updateLatency.toNanos());
    active.complete(null);
    switch (sw.fault()) {
      case SILENT -> {}
      case GARBAGE_HELLO ->
          c.writeAndFlush(Unpooled.wrappedBuffer(SimulatedOpenFlowSwitch.GARBAGE));
      case OPENFLOW10_HELLO ->
          c.writeAndFlush(OFFactories.getFactory(OFVersion.OF_10).buildHello().setXid(1).build());
      default ->
          c.writeAndFlush(
              F.buildHello()
                  .setXid(1)
                  .setElements(
                      List.of(
                          F.buildHelloElemVersionbitmap()
                              .setBitmaps(List.of(U32.of(1L << 4)))
                              .build()))
                  .build());
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext c, Object msg) {
    if (sw.fault() == FaultMode.SILENT) {
      return;
    }
    if (msg instanceof ForeignVersionFrame f) {
      LOG.log(System.Logger.Level.DEBUG, "sim {0}: ignored version {1}", sw.dpid, f.version());
      return;
    }
    OFMessage m = (OFMessage) msg;
    if (sw.fault() == FaultMode.WRONG_VERSION_REPLIES) {
      wrongVersionReply(m);
      return;
    }
    try {
      handle(m);
    } catch (RuntimeException e) {
      // A message the model cannot represent: refuse it as a switch would.
      LOG.log(System.Logger.Level.DEBUG, "sim " + sw.dpid + ": refused " + m.getType(), e);
      error(ErrorTranslator.BAD_REQUEST, ErrorTranslator.BAD_TYPE, m);
    }
    switch (m) {
      case OFFeaturesRequest r -> sw.tell(ControllerMessageListener::featuresRequest);
      case OFBarrierRequest b -> sw.tell(ControllerMessageListener::barrierRequest);
      case OFFlowMod fm -> sw.tell(ControllerMessageListener::flowMod);
      case OFFlowStatsRequest r -> sw.tell(ControllerMessageListener::flowStatsRequest);
      case OFPacketOut p -> sw.tell(ControllerMessageListener::packetOut);
      default -> {}
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
    LOG.log(System.Logger.Level.DEBUG, "sim " + sw.dpid + ": closing", cause);
    c.close();
  }

  private void handle(OFMessage m) {
    switch (m) {
      case OFHello h -> {}
      case OFEchoRequest e ->
          ctx.writeAndFlush(F.buildEchoReply().setXid(e.getXid()).setData(e.getData()).build());
      case OFFeaturesRequest r ->
          replies.send(
              F.buildFeaturesReply()
                  .setXid(r.getXid())
                  .setDatapathId(DatapathId.of(sw.dpid))
                  .setNBuffers(0)
                  .setNTables((short) sw.numTables)
                  .setCapabilities(
                      EnumSet.of(
                          OFCapabilities.FLOW_STATS,
                          OFCapabilities.TABLE_STATS,
                          OFCapabilities.PORT_STATS,
                          OFCapabilities.GROUP_STATS))
                  .build());
      case OFPortDescStatsRequest r -> replies.send(portDesc(r.getXid()));
      case OFPortStatsRequest r ->
          replies.send(
              F.buildPortStatsReply()
                  .setXid(r.getXid())
                  .setEntries(
                      sw.portCounters().stream().map(OpenFlowTranslator::toPortStats).toList())
                  .build());
      case OFSetConfig s -> sw.configReceived(s.getMissSendLen());
      case OFBarrierRequest b -> {
        sw.barrierReceived();
        if (sw.fault() != FaultMode.NO_BARRIER_REPLIES) {
          replies.send(F.buildBarrierReply().setXid(b.getXid()).build());
        }
      }
      case OFFlowMod fm when !sw.applyMods -> replies.updateProcessed();
      case OFGroupMod gm when !sw.applyMods -> replies.updateProcessed();
      case OFFlowMod fm -> update(SwitchMod.of(OpenFlowTranslator.fromOpenFlow(fm)), m);
      case OFGroupMod gm -> update(SwitchMod.of(OpenFlowTranslator.fromOpenFlow(gm)), m);
      case OFFlowStatsRequest r -> flowStats(r.getXid());
      case OFGroupDescStatsRequest r -> {
        List<org.projectfloodlight.openflow.protocol.OFGroupDescStatsEntry> entries =
            sw.groups().stream().map(OpenFlowTranslator::toGroupDesc).toList();
        replies.send(F.buildGroupDescStatsReply().setXid(r.getXid()).setEntries(entries).build());
      }
      case OFPacketOut p when !sw.wantsPacketOuts() -> {}
      case OFPacketOut p ->
          sw.packetOutReceived(
              new PacketOutRecord(
                  p.getInPort().getPortNumber() & 0xffffffffL,
                  OpenFlowTranslator.actions(p),
                  p.getData()));
      default -> error(ErrorTranslator.BAD_REQUEST, ErrorTranslator.BAD_TYPE, m);
    }
  }

  private void update(SwitchMod mod, OFMessage request) {
    List<FlowRemoved> removed = new ArrayList<>();
    Optional<OpenFlowError> e = sw.receive(mod, removed);
    replies.updateProcessed();
    e.ifPresent(err -> error(err.typeNumber(), err.code(), request));
    for (FlowRemoved r : removed) {
      replies.send(OpenFlowTranslator.toOpenFlow(r, nextXid()));
    }
  }

  /** Flow-stats in parts of {@code statsPartSize} entries, REPLY_MORE on all but the last. */
  private void flowStats(long requestXid) {
    List<FlowStats> flows = sw.flowStats();
    int part = sw.statsPartSize;
    int i = 0;
    do {
      List<FlowStats> slice = flows.subList(i, Math.min(flows.size(), i + part));
      i += part;
      boolean more = i < flows.size();
      replies.send(
          F.buildFlowStatsReply()
              .setXid(requestXid)
              .setFlags(more ? Set.of(OFStatsReplyFlags.REPLY_MORE) : Set.of())
              .setEntries(
                  slice.stream()
                      .map(
                          s ->
                              OpenFlowTranslator.toStats(
                                  s.entry(), s.durationSeconds(), s.packetCount()))
                      .toList())
              .build());
    } while (i < flows.size());
  }

  private OFMessage portDesc(long requestXid) {
    List<org.projectfloodlight.openflow.protocol.OFPortDesc> descs = new ArrayList<>();
    for (PortInfo p : sw.ports()) {
      descs.add(OpenFlowTranslator.toOpenFlow(p));
    }
    // Like Open vSwitch, the bridge's LOCAL port is listed too (down: nobody brought it up).
    long mac = 0x0200_0000_0000L | (sw.dpid & 0xffffff) << 16;
    descs.add(
        OpenFlowTranslator.toOpenFlow(new PortInfo(OfPort.LOCAL, "sim" + sw.dpid, mac, false)));
    return F.buildPortDescStatsReply().setXid(requestXid).setEntries(descs).build();
  }

  /** OFPT_ERROR answering {@code request}: its xid, its first bytes as data. */
  private void error(int type, int code, OFMessage request) {
    ByteBuf buf = Unpooled.buffer();
    try {
      request.writeTo(buf);
      byte[] data = new byte[Math.min(ERROR_DATA_BYTES, buf.readableBytes())];
      buf.getBytes(0, data);
      replies.send(ErrorTranslator.errorMessage(type, code, request.getXid(), data));
    } finally {
      buf.release();
    }
  }

  private void wrongVersionReply(OFMessage m) {
    OFFactory of10 = OFFactories.getFactory(OFVersion.OF_10);
    if (m instanceof OFBarrierRequest) {
      ctx.writeAndFlush(of10.buildBarrierReply().setXid(m.getXid()).build());
    } else if (m instanceof OFEchoRequest) {
      ctx.writeAndFlush(of10.buildEchoReply().setXid(m.getXid()).build());
    }
  }

  void portStatus(PortInfo p) {
    ctx.executor()
        .execute(
            () ->
                replies.send(
                    F.buildPortStatus()
                        .setXid(nextXid())
                        .setReason(OFPortReason.MODIFY)
                        .setDesc(OpenFlowTranslator.toOpenFlow(p))
                        .build()));
  }

  void packetIn(long inPort, int tableId, long cookie, byte[] frame) {
    byte[] data = frame.clone();
    ctx.executor()
        .execute(
            () ->
                replies.send(
                    F.buildPacketIn()
                        .setXid(nextXid())
                        .setBufferId(OFBufferId.NO_BUFFER)
                        .setTotalLen(data.length)
                        .setReason(OFPacketInReason.ACTION)
                        .setTableId(TableId.of(tableId))
                        .setCookie(U64.of(cookie))
                        .setMatch(
                            F.buildMatch()
                                .setExact(MatchField.IN_PORT, OFPort.ofInt((int) inPort))
                                .build())
                        .setData(data)
                        .build()));
  }

  private long nextXid() {
    return xid++;
  }
}
