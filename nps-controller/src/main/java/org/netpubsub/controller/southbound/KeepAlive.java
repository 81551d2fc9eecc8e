package org.netpubsub.controller.southbound;

import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Liveness of one connection (event loop only): after {@code echoInterval} without any message from
 * the switch an echo request goes out (again each interval); after {@code deadPeerTimeout} without
 * any message the connection is closed as {@link DisconnectReason#DEAD_PEER}.
 */
final class KeepAlive {
  /** Checks run at half the smallest interval, so a deadline is missed by at most that. */
  private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final SwitchConnection connection;
  private final long echoNanos;
  private final long deadNanos;
  private long lastRead;
  private long lastEcho;
  private ScheduledFuture<?> tick;

  KeepAlive(SwitchConnection connection, Duration echoInterval, Duration deadPeerTimeout) {
    this.connection = connection;
    this.echoNanos = echoInterval.toNanos();
    this.deadNanos = deadPeerTimeout.toNanos();
  }

  void start(EventLoop loop) {
    lastRead = System.nanoTime();
    lastEcho = lastRead;
    long period = Math.max(MIN_TICK_NANOS, Math.min(echoNanos, deadNanos - echoNanos) / 2);
    tick = loop.scheduleAtFixedRate(this::check, period, period, TimeUnit.NANOSECONDS);
  }

  void messageReceived() {
    lastRead = System.nanoTime();
  }

  void stop() {
    if (tick != null) {
      tick.cancel(false);
    }
  }

  private void check() {
    long now = System.nanoTime();
    long idle = now - lastRead;
    if (idle >= deadNanos) {
      connection.close(DisconnectReason.DEAD_PEER);
    } else if (idle >= echoNanos && now - lastEcho >= echoNanos) {
      lastEcho = now;
      connection.send(
          OpenFlowTranslator.OF13
              .buildEchoRequest()
              .setXid(connection.nextXid())
              .setData(new byte[0])
              .build());
    }
  }
}
