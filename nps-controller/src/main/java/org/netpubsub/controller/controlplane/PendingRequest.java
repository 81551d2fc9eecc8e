package org.netpubsub.controller.controlplane;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A submitted request waiting for its partial requests; completes with the last of them. */
final class PendingRequest {
  final String id;
  final long submittedNanos;
  final CompletableFuture<RequestDone> done = new CompletableFuture<>();
  private final int parts;
  private final AtomicInteger remaining;
  private final AtomicInteger flowMods = new AtomicInteger();
  private final AtomicInteger paths = new AtomicInteger();
  private final Set<Long> switches = ConcurrentHashMap.newKeySet();

  PendingRequest(String id, long submittedNanos, int parts) {
    this.id = id;
    this.submittedNanos = submittedNanos;
    this.parts = parts;
    this.remaining = new AtomicInteger(parts);
    if (parts == 0) {
      done.complete(new RequestDone(id, 0, 0, 0, 0, 0));
    }
  }

  void partDone(int mods, Collection<Long> touched, int pathCount, long nowNanos) {
    flowMods.addAndGet(mods);
    switches.addAll(touched);
    paths.addAndGet(pathCount);
    if (remaining.decrementAndGet() == 0) {
      done.complete(
          new RequestDone(
              id, nowNanos - submittedNanos, parts, flowMods.get(), switches.size(), paths.get()));
    }
  }

  void partFailed(Throwable t) {
    done.completeExceptionally(t);
  }
}
