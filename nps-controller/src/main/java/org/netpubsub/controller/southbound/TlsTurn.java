package org.netpubsub.controller.southbound;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The first handler of a TLS connection: holds the bytes the peer sends (its ClientHello) until the
 * connection's {@link HandshakeTurns turn} begins (at once unless the controller is slow), then
 * hands them to the {@link SslHandler} behind it and steps aside. The turn ends when the TLS
 * handshake completes or fails (a close fails it too), or after {@code lease}, whichever comes
 * first. A peer that connects and sends nothing never asks for a turn. Confined to the channel's
 * event loop.
 *
 * <p>Reading goes on while the connection waits, so a peer that gives up (Open vSwitch closes a
 * connection not done within its deadline) is seen at once and leaves the queue; with reads paused
 * its close went unnoticed, and its turn came, computed a handshake for nobody, and delayed the
 * live ones behind it (measured, stop 41). A TLS client sends nothing after its ClientHello until
 * the server answers, so what waits is one ClientHello; more than {@link #MAX_HELD} bytes close the
 * connection. Turns are shared by the peer's IP address ({@link HandshakeTurns}); a connection
 * beyond the waiting bounds begins at once, as without turns, and is counted ({@code
 * tlsTurnsOverflow}).
 */
final class TlsTurn extends ChannelInboundHandlerAdapter {
  /** A TLS record is at most 16 KiB plus its overhead: a ClientHello fits many times over. */
  static final int MAX_HELD = 64 * 1024;

  private final HandshakeTurns<TlsTurn> turns;
  private final Duration lease;
  private final SouthboundMetrics metrics;
  private final HandshakeLag lag;
  private final List<Object> held = new ArrayList<>(1);
  private long heldBytes;
  private ChannelHandlerContext ctx;
  private boolean asked;
  private boolean started;
  private boolean ended;
  private Future<?> leaseEnd;

  TlsTurn(
      HandshakeTurns<TlsTurn> turns, Duration lease, SouthboundMetrics metrics, HandshakeLag lag) {
    this.turns = turns;
    this.lease = lease;
    this.metrics = metrics;
    this.lag = lag;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (started) {
      ctx.fireChannelRead(msg);
      return;
    }
    held.add(msg);
    heldBytes += msg instanceof ByteBuf b ? b.readableBytes() : 0;
    if (heldBytes > MAX_HELD) {
      ctx.close(); // not a TLS client waiting for the server's answer
      return;
    }
    if (!asked) {
      asked = true;
      switch (turns.request(source(ctx), this, lag.slow())) {
        case BEGIN -> begin();
        case WAIT -> {}
        case OVERFLOW -> {
          metrics.tlsTurnOverflow(); // its source's queue or the whole queue is full
          begin();
        }
      }
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (started) {
      ctx.fireChannelReadComplete();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    dropHeld();
    end();
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    dropHeld();
  }

  /** Turns are shared per peer IP address (any port): one address cannot take another's turns. */
  private static Object source(ChannelHandlerContext ctx) {
    SocketAddress remote = ctx.channel().remoteAddress();
    if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress();
    }
    return remote == null ? ctx.channel() : remote; // embedded channels in tests
  }

  /** The turn begins (on the channel's loop): the held bytes go to TLS. */
  private void begin() {
    if (!ctx.channel().isActive()) {
      end(); // closed while it waited: pass the turn on
      return;
    }
    started = true;
    ctx.pipeline().get(SslHandler.class).handshakeFuture().addListener(f -> end());
    leaseEnd = ctx.executor().schedule(this::end, lease.toNanos(), TimeUnit.NANOSECONDS);
    List<Object> bytes = List.copyOf(held);
    held.clear();
    long start = System.nanoTime();
    bytes.forEach(ctx::fireChannelRead); // the ClientHello: the server's flight is computed here
    lag.record(System.nanoTime() - start);
    ctx.fireChannelReadComplete();
  }

  /** Ends the turn or the wait, once; starts the turns that begin now on their own loops. */
  private void end() {
    if (ended) {
      return;
    }
    ended = true;
    if (leaseEnd != null) {
      leaseEnd.cancel(false); // most handshakes end long before their lease: no timer left behind
    }
    for (TlsTurn next : turns.end(this, lag.slow())) {
      next.ctx.executor().execute(next::begin);
    }
  }

  private void dropHeld() {
    held.forEach(ReferenceCountUtil::release);
    held.clear();
    heldBytes = 0;
  }
}
