package org.netpubsub.controller.southbound;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;

/**
 * The requests of one connection that wait for an answer, by xid: batches (each message's xid and
 * the barrier's) and multipart requests. Confined to the connection's event loop. Multipart futures
 * complete on the switch's callback executor, never on the event loop; batch futures on {@code
 * batches}: the same executor, or (a group shared with the controller's loop) directly on the event
 * loop, which is then the controller loop.
 */
final class RequestTracker {
  private final Map<Long, Object> byXid = new HashMap<>();
  private final SouthboundMetrics metrics;
  private final Executor callbacks;
  private final Executor batches;
  private final long dpid;

  RequestTracker(SouthboundMetrics metrics, Executor callbacks, Executor batches, long dpid) {
    this.metrics = metrics;
    this.callbacks = callbacks;
    this.batches = batches;
    this.dpid = dpid;
  }

  void add(PendingBatch b) {
    b.modsByXid.keySet().forEach(x -> byXid.put(x, b));
    byXid.put(b.barrierXid, b);
  }

  void add(PendingMultipart<?> m) {
    byXid.put(m.xid, m);
  }

  int size() {
    return byXid.size();
  }

  /** An error answering a pending request; false if it answers none (unsolicited). */
  boolean onError(long xid, SwitchError error) {
    Object p = byXid.get(xid);
    if (p instanceof PendingBatch b) {
      SwitchMod mod = b.modsByXid.get(xid);
      if (mod != null) {
        b.errors.add(new BatchFailedException.ModError(mod, error));
        return true;
      }
      // The barrier itself was refused: the batch cannot be acknowledged.
      remove(b);
      metrics.batchFailed();
      fail(batches, b.future, new SwitchErrorException(dpid, "barrier request", error));
      return true;
    }
    if (p instanceof PendingMultipart<?> m) {
      byXid.remove(xid);
      cancel(m.timeout);
      fail(m.future, new SwitchErrorException(dpid, m.what, error));
      return true;
    }
    return false;
  }

  /** A barrier reply: completes its batch, with the errors answered before it if any. */
  boolean onBarrierReply(long xid) {
    if (!(byXid.get(xid) instanceof PendingBatch b) || b.barrierXid != xid) {
      return false;
    }
    remove(b);
    if (b.errors.isEmpty()) {
      Duration latency = Duration.ofNanos(System.nanoTime() - b.startNanos);
      metrics.batchAcknowledged(latency.toNanos());
      BatchResult r = new BatchResult(dpid, b.modsByXid.size(), latency);
      batches.execute(() -> b.future.complete(r));
    } else {
      metrics.batchFailed();
      fail(batches, b.future, new BatchFailedException(dpid, b.modsByXid.size(), b.errors));
    }
    return true;
  }

  /** One part of a multipart reply; the request completes with the last part. */
  boolean onStatsReply(OFStatsReply reply) {
    if (!(byXid.get(reply.getXid()) instanceof PendingMultipart<?> m)) {
      return false;
    }
    collect(m, reply);
    return true;
  }

  private <T> void collect(PendingMultipart<T> m, OFStatsReply reply) {
    try {
      m.collected.addAll(m.items.apply(reply));
    } catch (RuntimeException e) {
      byXid.remove(m.xid);
      cancel(m.timeout);
      fail(m.future, e); // e.g. a flow the model cannot represent
      return;
    }
    if (!reply.getFlags().contains(OFStatsReplyFlags.REPLY_MORE)) {
      byXid.remove(m.xid);
      cancel(m.timeout);
      List<T> all = List.copyOf(m.collected);
      callbacks.execute(() -> m.future.complete(all));
    }
  }

  /** The barrier timeout of a batch fired: fails it if it still waits. */
  void timedOut(PendingBatch b, Duration timeout) {
    if (byXid.get(b.barrierXid) != b) {
      return;
    }
    remove(b);
    metrics.batchTimedOut();
    fail(
        batches,
        b.future,
        new SouthboundTimeoutException(
            dpid, "the barrier of a batch of " + b.modsByXid.size() + " messages", timeout));
  }

  void timedOut(PendingMultipart<?> m, Duration timeout) {
    if (byXid.get(m.xid) != m) {
      return;
    }
    byXid.remove(m.xid);
    fail(m.future, new SouthboundTimeoutException(dpid, m.what, timeout));
  }

  /** The connection ended: every pending request fails with {@code cause}. */
  void failAll(RuntimeException cause) {
    List<Object> pending = new ArrayList<>(new java.util.LinkedHashSet<>(byXid.values()));
    byXid.clear();
    for (Object p : pending) {
      if (p instanceof PendingBatch b) {
        cancel(b.timeout);
        fail(batches, b.future, cause);
      } else if (p instanceof PendingMultipart<?> m) {
        cancel(m.timeout);
        fail(m.future, cause);
      }
    }
  }

  private void remove(PendingBatch b) {
    b.modsByXid.keySet().forEach(byXid::remove);
    byXid.remove(b.barrierXid);
    cancel(b.timeout);
  }

  private void fail(java.util.concurrent.CompletableFuture<?> f, Throwable t) {
    fail(callbacks, f, t);
  }

  private static void fail(Executor on, java.util.concurrent.CompletableFuture<?> f, Throwable t) {
    on.execute(() -> f.completeExceptionally(t));
  }

  private static void cancel(java.util.concurrent.ScheduledFuture<?> f) {
    if (f != null) {
      f.cancel(false);
    }
  }
}
