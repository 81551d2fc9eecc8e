package org.netpubsub.controller.app;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

/**
 * One reconcile per switch at a time. Two planned from one read of a switch would both send an ADD
 * for a group it lacks, and the second fail with OFPGMFC_GROUP_EXISTS; so a reconcile asked for
 * while one is in flight runs once that one is done, reading the switch and the desired state
 * afresh, and whoever asked completes with it. Confined to the controller loop.
 */
final class ReconcileTurns {
  private final LongPredicate ready;
  private final LongFunction<CompletableFuture<?>> reconcile;
  private final Executor loop;
  private final Set<Long> running = new HashSet<>();
  private final Set<Long> dirty = new HashSet<>();
  private final Map<Long, CompletableFuture<Void>> waiting = new HashMap<>();

  /**
   * {@code ready}: whether a switch can be reconciled now (connected, with a desired state); {@code
   * reconcile} starts one, reading the desired state when called; {@code loop} runs the bookkeeping
   * when one completes.
   */
  ReconcileTurns(LongPredicate ready, LongFunction<CompletableFuture<?>> reconcile, Executor loop) {
    this.ready = ready;
    this.reconcile = reconcile;
    this.loop = loop;
  }

  /** The desired state changed: a reconcile in flight planned with the old one runs again after. */
  void changed(long dpid) {
    if (running.contains(dpid)) {
      dirty.add(dpid);
    }
  }

  /**
   * Reconciles the switch in turn; completes once a reconcile that read the desired state of now is
   * done, at once if the switch is not {@code ready}.
   */
  CompletableFuture<Void> request(long dpid) {
    if (!ready.test(dpid)) {
      return CompletableFuture.completedFuture(null);
    }
    if (!running.add(dpid)) {
      dirty.add(dpid);
      return waiting.computeIfAbsent(dpid, d -> new CompletableFuture<>());
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    reconcile.apply(dpid).whenComplete((r, e) -> loop.execute(() -> finished(dpid, e, done)));
    return done;
  }

  private void finished(long dpid, Throwable e, CompletableFuture<Void> done) {
    running.remove(dpid);
    complete(done, e);
    CompletableFuture<Void> next = waiting.remove(dpid);
    CompletableFuture<Void> rerun =
        dirty.remove(dpid) ? request(dpid) : CompletableFuture.completedFuture(null);
    if (next != null) {
      rerun.whenComplete((v, x) -> complete(next, x));
    }
  }

  private static void complete(CompletableFuture<Void> f, Throwable e) {
    if (e == null) {
      f.complete(null);
    } else {
      f.completeExceptionally(
          e instanceof CompletionException c && c.getCause() != null ? c.getCause() : e);
    }
  }
}
