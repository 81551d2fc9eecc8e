package org.netpubsub.controller.controlplane;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A submitted request waiting for its partial requests; completes with the last of them. Parts
 * finish on several configurators, each holding the monitor only to add its counts: plain fields
 * under one lock cost less per part than atomics and a concurrent set.
 */
final class PendingRequest {
  final String id;
  final long submittedNanos;
  final CompletableFuture<RequestDone> done = new CompletableFuture<>();
  private final int parts;
  private int remaining; // guarded by this, as are the counts
  private int flowMods;
  private int paths;
  private Set<Long> switches; // null until a part touches one

  PendingRequest(String id, long submittedNanos, int parts) {
    this.id = id;
    this.submittedNanos = submittedNanos;
    this.parts = parts;
    this.remaining = parts;
    if (parts == 0) {
      done.complete(new RequestDone(id, 0, 0, 0, 0, 0));
    }
  }

  void partDone(int mods, Collection<Long> touched, int pathCount, long nowNanos) {
    RequestDone last;
    synchronized (this) {
      flowMods += mods;
      paths += pathCount;
      if (!touched.isEmpty()) {
        if (switches == null) {
          switches = new HashSet<>(touched);
        } else {
          switches.addAll(touched);
        }
      }
      if (--remaining > 0) {
        return;
      }
      int switchCount = switches == null ? 0 : switches.size();
      last = new RequestDone(id, nowNanos - submittedNanos, parts, flowMods, switchCount, paths);
    }
    done.complete(last); // outside the lock: completion runs the waiters' callbacks
  }

  void partFailed(Throwable t) {
    done.completeExceptionally(t);
  }
}
