package org.netpubsub.controller.controlplane;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** A submitted request waiting for its partial requests; completes with the last of them. */
final class PendingRequest {
  final String id;
  final long submittedNanos;
  final CompletableFuture<RequestDone> done = new CompletableFuture<>();
  private final int parts;
  private final AtomicInteger remaining;
  private final AtomicInteger flowMods = new AtomicInteger();

  PendingRequest(String id, long submittedNanos, int parts) {
    this.id = id;
    this.submittedNanos = submittedNanos;
    this.parts = parts;
    this.remaining = new AtomicInteger(parts);
    if (parts == 0) {
      done.complete(new RequestDone(id, 0, 0, 0));
    }
  }

  void partDone(int mods, long nowNanos) {
    flowMods.addAndGet(mods);
    if (remaining.decrementAndGet() == 0) {
      done.complete(new RequestDone(id, nowNanos - submittedNanos, parts, flowMods.get()));
    }
  }

  void partFailed(Throwable t) {
    done.completeExceptionally(t);
  }
}
