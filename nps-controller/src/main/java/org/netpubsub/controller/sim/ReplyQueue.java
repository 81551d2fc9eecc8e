package org.netpubsub.controller.sim;

import io.netty.channel.Channel;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Sends a simulated switch's answers in order, each no earlier than its due time: with a per-update
 * latency the switch is "busy" for that long per flow-mod or group-mod, and every answer queued
 * behind it waits (scheduled on the event loop, never by sleeping). Event loop only.
 */
final class ReplyQueue {
  private record Due(long atNanos, Object message) {}

  private final Channel channel;
  private final long latencyNanos;
  private final ArrayDeque<Due> queue = new ArrayDeque<>();
  private long busyUntil = Long.MIN_VALUE;
  private boolean scheduled;

  ReplyQueue(Channel channel, long latencyNanos) {
    this.channel = channel;
    this.latencyNanos = latencyNanos;
  }

  /** One update was processed: later answers wait one more latency. */
  void updateProcessed() {
    if (latencyNanos > 0) {
      long now = System.nanoTime();
      busyUntil = Math.max(now, busyUntil == Long.MIN_VALUE ? now : busyUntil) + latencyNanos;
    }
  }

  /** Sends {@code message} after everything queued before it, once the switch is not busy. */
  void send(Object message) {
    if (latencyNanos == 0 && queue.isEmpty()) {
      channel.writeAndFlush(message, channel.voidPromise());
      return;
    }
    queue.add(new Due(Math.max(System.nanoTime(), busyUntil), message));
    drain();
  }

  private void drain() {
    long now = System.nanoTime();
    boolean wrote = false;
    while (!queue.isEmpty() && queue.peek().atNanos - now <= 0) {
      channel.write(queue.poll().message, channel.voidPromise());
      wrote = true;
    }
    if (wrote) {
      channel.flush();
    }
    if (!queue.isEmpty() && !scheduled) {
      scheduled = true;
      channel
          .eventLoop()
          .schedule(
              () -> {
                scheduled = false;
                drain();
              },
              queue.peek().atNanos - now,
              TimeUnit.NANOSECONDS);
    }
  }
}
