package org.netpubsub.controller.southbound;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.openflow.GroupEntry;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortStatus;
import org.projectfloodlight.openflow.protocol.OFStatsReply;

/**
 * One switch's connection: the last handler of its channel's pipeline and its {@link SwitchHandle}.
 * All protocol state is confined to the channel's event loop; the public methods hop onto it.
 * Handshake: HELLO (version bitmap {1.3}) → FEATURES → PORT_DESC → SET_CONFIG + BARRIER →
 * connected. Asynchronous messages go to {@link SwitchEvents}.
 */
final class SwitchConnection extends ChannelInboundHandlerAdapter implements SwitchHandle {
  private static final System.Logger LOG = System.getLogger(SwitchConnection.class.getName());

  private final NettyOpenFlowServer server;
  private final ServerConfig config;
  private final SouthboundMetrics metrics;
  private final AtomicLong xids = new AtomicLong();
  private final Map<Long, PortInfo> ports = new ConcurrentSkipListMap<>(Long::compareUnsigned);
  private final KeepAlive keepAlive;
  private final Handshake handshake = new Handshake(this);

  private Channel channel;
  private boolean closed;
  private volatile DisconnectReason closeReason = DisconnectReason.CLOSED_BY_CONTROLLER;
  private final List<OFMessage> deferred = new ArrayList<>();
  private final Map<Long, CompletableFuture<Boolean>> probes = new HashMap<>();
  private RequestTracker requests;
  private SwitchEvents events;
  private volatile long dpid;
  private volatile int numTables;
  private volatile boolean connected;

  SwitchConnection(NettyOpenFlowServer server) {
    this.server = server;
    this.config = server.config();
    this.metrics = server.metrics();
    this.keepAlive = new KeepAlive(this, config.echoInterval(), config.deadPeerTimeout());
  }

  // ---- channel events (event loop) ----

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    metrics.connectionAccepted();
    server.track(this);
    handshake.start();
    keepAlive.start(channel.eventLoop());
    channel
        .eventLoop()
        .schedule(
            () -> {
              if (!connected) {
                close(DisconnectReason.HANDSHAKE_TIMEOUT);
              }
            },
            config.handshakeTimeout().toNanos(),
            TimeUnit.NANOSECONDS);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    close(DisconnectReason.CLOSED_BY_SWITCH);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (closed) {
      return;
    }
    keepAlive.messageReceived();
    metrics.messageReceived();
    try {
      if (msg instanceof ForeignVersionFrame f) {
        handshake.foreignVersion(f);
      } else if (msg instanceof OFMessage m) {
        if (m instanceof OFEchoRequest echo) {
          send(
              OpenFlowTranslator.OF13
                  .buildEchoReply()
                  .setXid(echo.getXid())
                  .setData(echo.getData())
                  .build());
        } else if (!connected && m instanceof OFEchoReply) {
          // an answer to a keep-alive echo while the dpid claim is probed: liveness only
        } else if (!connected && isAsynchronous(m)) {
          // Switches may send these as soon as the version is agreed. A port-status older than
          // the port description is stale; the rest is delivered once connected.
          if (!(m instanceof OFPortStatus) || handshake.portsKnown()) {
            deferred.add(m);
          }
        } else if (!connected) {
          Handshake.Result r = handshake.message(m);
          if (r != null) {
            handshakeDone(r);
          }
        } else {
          dispatch(m);
        }
      }
    } catch (ProtocolViolationException e) {
      LOG.log(System.Logger.Level.INFO, "{0}: {1}", this, e.getMessage());
      close(e.reason());
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, this + ": handling " + msg, e);
      close(DisconnectReason.INTERNAL_ERROR);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable c =
        cause instanceof DecoderException d && d.getCause() != null ? d.getCause() : cause;
    if (c instanceof ProtocolViolationException p) {
      LOG.log(System.Logger.Level.INFO, "{0}: {1}", this, p.getMessage());
      close(p.reason());
    } else if (c instanceof SSLException) {
      LOG.log(System.Logger.Level.INFO, "{0}: TLS failed: {1}", this, c.getMessage());
      close(DisconnectReason.TLS_FAILED);
    } else if (c instanceof IOException) {
      close(DisconnectReason.IO_ERROR);
    } else {
      LOG.log(System.Logger.Level.ERROR, this + ": unexpected", c);
      close(DisconnectReason.INTERNAL_ERROR);
    }
  }

  private void handshakeDone(Handshake.Result r) {
    dpid = r.dpid();
    numTables = r.numTables();
    r.ports().forEach(p -> ports.put(p.number(), p));
    server.claim(this, null);
  }

  /** The subject CN of the switch's TLS certificate (empty over plain TCP). */
  Optional<String> peerCommonName() {
    SslHandler tls = channel.pipeline().get(SslHandler.class);
    return tls == null ? Optional.empty() : OpenFlowTls.peerCommonName(tls);
  }

  /** True once closed (event loop). */
  boolean isClosed() {
    return closed;
  }

  /**
   * The server is registering this connection under its dpid (event loop, not closed): from here on
   * it is usable, so it is ready before the server lists it.
   */
  void prepare(SwitchEvents registeredEvents) {
    events = registeredEvents;
    requests =
        new RequestTracker(
            metrics,
            events.executor(),
            server.completesBatchesOnLoop() ? Runnable::run : events.executor(),
            dpid);
    connected = true;
  }

  /** The server listed this connection: announce it (event loop). */
  void registered() {
    metrics.handshakeCompleted();
    events.connected();
    deferred.forEach(events::asynchronous);
    deferred.clear();
    server.connectedAndAnnounced(this, events);
  }

  private static boolean isAsynchronous(OFMessage m) {
    return m instanceof OFPortStatus || m instanceof OFPacketIn || m instanceof OFFlowRemoved;
  }

  /** A message of a connected switch: answers to requests, errors, asynchronous messages. */
  private void dispatch(OFMessage m) {
    switch (m) {
      case OFStatsReply r -> {
        if (!requests.onStatsReply(r)) {
          metrics.unmatchedReply();
        }
      }
      case OFBarrierReply b -> {
        if (!requests.onBarrierReply(b.getXid())) {
          metrics.unmatchedReply();
        }
      }
      case OFErrorMsg e -> {
        SwitchError err = OpenFlowTranslator.fromOpenFlow(e);
        if (!requests.onError(e.getXid(), err)) {
          metrics.unsolicitedError();
          events.error(err);
        }
      }
      case OFEchoReply r -> {
        // liveness is noted for every message; an answer to a probe also completes it
        CompletableFuture<Boolean> probe = probes.remove(r.getXid());
        if (probe != null) {
          probe.complete(true);
        }
      }
      default -> events.asynchronous(m);
    }
  }

  // ---- SwitchHandle (any thread) ----

  @Override
  public long dpid() {
    return dpid;
  }

  @Override
  public int numTables() {
    return numTables;
  }

  @Override
  public List<PortInfo> ports() {
    return List.copyOf(ports.values());
  }

  /** A port-status message changed a port (event loop). */
  void portChanged(PortInfo p, SouthboundListener.PortReason reason) {
    if (reason == SouthboundListener.PortReason.DELETE) {
      ports.remove(p.number());
    } else {
      ports.put(p.number(), p);
    }
  }

  @Override
  public SocketAddress remoteAddress() {
    return channel.remoteAddress();
  }

  @Override
  public boolean isConnected() {
    return connected;
  }

  @Override
  public CompletableFuture<BatchResult> apply(List<SwitchMod> batch) {
    CompletableFuture<BatchResult> future = new CompletableFuture<>();
    List<OFMessage> messages = new ArrayList<>(batch.size() + 1);
    Map<Long, SwitchMod> byXid = new LinkedHashMap<>();
    try {
      for (SwitchMod mod : batch) {
        long xid = nextXid();
        messages.add(OpenFlowTranslator.toOpenFlow(mod, xid));
        byXid.put(xid, mod);
      }
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    long barrierXid = nextXid();
    messages.add(OpenFlowTranslator.OF13.buildBarrierRequest().setXid(barrierXid).build());
    long start = System.nanoTime();
    onLoop(
        future,
        () -> {
          PendingBatch b = new PendingBatch(byXid, barrierXid, future, start);
          requests.add(b);
          b.timeout =
              channel
                  .eventLoop()
                  .schedule(
                      () -> requests.timedOut(b, config.barrierTimeout()),
                      config.barrierTimeout().toNanos(),
                      TimeUnit.NANOSECONDS);
          for (OFMessage m : messages) {
            channel.write(m, channel.voidPromise());
          }
          channel.flush();
          metrics.messagesSent(messages.size());
          metrics.modsSent(batch.size());
        });
    return future;
  }

  @Override
  public CompletableFuture<Void> packetOut(long inPort, List<Action> actions, byte[] frame) {
    CompletableFuture<Void> future = new CompletableFuture<>();
    OFMessage m = OpenFlowTranslator.packetOut(inPort, actions, frame, nextXid());
    onLoop(
        future,
        () ->
            channel
                .writeAndFlush(m)
                .addListener(
                    f -> {
                      metrics.messagesSent(1);
                      events
                          .executor()
                          .execute(
                              () -> {
                                if (f.isSuccess()) {
                                  future.complete(null);
                                } else {
                                  future.completeExceptionally(f.cause());
                                }
                              });
                    }));
    return future;
  }

  @Override
  public CompletableFuture<List<FlowEntry>> flowStats() {
    return multipart(MultipartRequest.flowStats(nextXid()));
  }

  @Override
  public CompletableFuture<List<FlowStats>> flowCounters(long cookie) {
    return multipart(MultipartRequest.flowCounters(nextXid(), cookie));
  }

  @Override
  public CompletableFuture<List<GroupEntry>> groupDesc() {
    return multipart(MultipartRequest.groupDesc(nextXid()));
  }

  @Override
  public CompletableFuture<List<PortInfo>> portDescriptions() {
    return multipart(MultipartRequest.portDesc(nextXid()));
  }

  @Override
  public CompletableFuture<List<PortCounters>> portStats() {
    return multipart(MultipartRequest.portStats(nextXid()));
  }

  private <T> CompletableFuture<List<T>> multipart(MultipartRequest<T> r) {
    CompletableFuture<List<T>> future = new CompletableFuture<>();
    onLoop(
        future,
        () -> {
          PendingMultipart<T> m = new PendingMultipart<>(r.xid(), r.what(), r.items(), future);
          requests.add(m);
          m.timeout =
              channel
                  .eventLoop()
                  .schedule(
                      () -> requests.timedOut(m, config.barrierTimeout()),
                      config.barrierTimeout().toNanos(),
                      TimeUnit.NANOSECONDS);
          send(r.request());
        });
    return future;
  }

  @Override
  public void disconnect() {
    if (channel != null) {
      channel.eventLoop().execute(() -> close(DisconnectReason.CLOSED_BY_CONTROLLER));
    }
  }

  // ---- internals (event loop unless said otherwise) ----

  /**
   * Runs {@code task} on the event loop if connected, else fails {@code future}. Any thread; on the
   * event loop itself (the controller's loop, which shares it) at once, not queued behind the
   * loop's current work: a batch is then written by the thread that applied it.
   */
  private void onLoop(CompletableFuture<?> future, Runnable task) {
    Runnable guarded =
        () -> {
          if (!connected) {
            future.completeExceptionally(new SwitchDisconnectedException(dpid, closeReason));
            return;
          }
          task.run();
        };
    if (channel.eventLoop().inEventLoop()) {
      guarded.run();
      return;
    }
    try {
      channel.eventLoop().execute(guarded);
    } catch (RejectedExecutionException e) {
      future.completeExceptionally(new SwitchDisconnectedException(dpid, closeReason));
    }
  }

  /** Runs {@code task} on this connection's event loop, unless that is gone (any thread). */
  void onEventLoop(Runnable task) {
    try {
      channel.eventLoop().execute(task);
    } catch (RejectedExecutionException e) {
      // the event loop is shutting down, and the channel with it
    }
  }

  /**
   * Sends an echo request; completes true if its reply comes within {@code timeout}, false on a
   * timeout or a close (any thread). Decides whether another connection may take over this dpid.
   */
  CompletableFuture<Boolean> probe(Duration timeout) {
    CompletableFuture<Boolean> answered = new CompletableFuture<>();
    Runnable task =
        () -> {
          if (!connected) {
            answered.complete(false);
            return;
          }
          long xid = nextXid();
          probes.put(xid, answered);
          send(OpenFlowTranslator.OF13.buildEchoRequest().setXid(xid).setData(new byte[0]).build());
          channel
              .eventLoop()
              .schedule(
                  () -> {
                    if (probes.remove(xid) != null) {
                      answered.complete(false);
                    }
                  },
                  timeout.toNanos(),
                  TimeUnit.NANOSECONDS);
        };
    try {
      channel.eventLoop().execute(task);
    } catch (RejectedExecutionException e) {
      answered.complete(false);
    }
    return answered;
  }

  long nextXid() {
    // xids are u32; 0 is left out so that a zeroed header never matches a request.
    long x;
    do {
      x = xids.incrementAndGet() & 0xffffffffL;
    } while (x == 0);
    return x;
  }

  void send(OFMessage m) {
    channel.writeAndFlush(m, channel.voidPromise());
    metrics.messagesSent(1);
  }

  void sendAndClose(OFMessage m, DisconnectReason reason) {
    channel.writeAndFlush(m).addListener(ChannelFutureListener.CLOSE);
    metrics.messagesSent(1);
    close(reason, false);
  }

  void close(DisconnectReason reason) {
    close(reason, true);
  }

  /** Ends the connection once: counts it, fails pending requests, tells the server. */
  private void close(DisconnectReason reason, boolean closeChannel) {
    if (closed) {
      return;
    }
    boolean wasConnected = connected;
    closeReason = reason;
    closed = true;
    connected = false;
    keepAlive.stop();
    probes.values().forEach(p -> p.complete(false));
    probes.clear();
    if (requests != null) {
      requests.failAll(new SwitchDisconnectedException(dpid, reason));
    }
    if (closeChannel && channel != null) {
      channel.close();
    }
    server.closed(this, wasConnected, reason);
    metrics.disconnected(reason); // last: once counted, the switch is no longer listed
  }

  /** Another connection of this dpid took over (any thread). */
  void disconnectReplaced() {
    channel.eventLoop().execute(() -> close(DisconnectReason.REPLACED));
  }

  /** Closes on the event loop and waits for it (the server closing; any thread but the loop). */
  void closeAndWait(DisconnectReason reason) {
    if (channel == null) {
      return;
    }
    try {
      channel.eventLoop().submit(() -> close(reason)).awaitUninterruptibly(1, TimeUnit.SECONDS);
    } catch (RejectedExecutionException e) {
      // the event loop is already gone, and the channel with it
    }
  }

  @Override
  public String toString() {
    return "switch "
        + (dpid == 0 && !connected ? "?" : SouthboundException.dpidString(dpid))
        + " at "
        + (channel == null ? "?" : channel.remoteAddress());
  }
}
