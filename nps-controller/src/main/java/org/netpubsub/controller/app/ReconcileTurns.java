package org.netpubsub.controller.app;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * One reconcile per switch at a time, whole-switch or scoped. Two planned from one read of a switch
 * would both send an ADD for a group it lacks, and the second fail with OFPGMFC_GROUP_EXISTS; and a
 * scoped one (a cluster partition's content flows) beside a whole-switch one would plan from a read
 * the other is changing. So a reconcile asked for while one is in flight waits for its turn: the
 * scoped ones in the order asked, then the whole-switch one, which reads the switch and the desired
 * state afresh, and everyone who asked for it meanwhile completes with it. Confined to the
 * controller loop.
 */
final class ReconcileTurns {
  private final LongPredicate ready;
  private final LongFunction<CompletableFuture<?>> reconcile;
  private final Executor loop;
  private final Set<Long> running = new HashSet<>();
  private final Set<Long> runningWhole = new HashSet<>();
  private final Set<Long> dirty = new HashSet<>();
  private final Map<Long, CompletableFuture<Void>> waiting = new HashMap<>();
  private final Map<Long, ArrayDeque<Scoped>> scoped = new HashMap<>();

  private record Scoped(Supplier<CompletableFuture<?>> work, CompletableFuture<Void> done) {}

  /**
   * {@code ready}: whether a switch can be reconciled whole now (connected, with a desired state);
   * {@code reconcile} starts one, reading the desired state when called; {@code loop} runs the
   * bookkeeping when one completes.
   */
  ReconcileTurns(LongPredicate ready, LongFunction<CompletableFuture<?>> reconcile, Executor loop) {
    this.ready = ready;
    this.reconcile = reconcile;
    this.loop = loop;
  }

  /**
   * The desired state changed: a whole-switch reconcile in flight, planned with the old one, runs
   * again after. Returns what completes once that re-run is done (at once if none was in flight):
   * until then the switch may lack flows of the old plan's topology that the change builds on.
   */
  CompletableFuture<Void> changed(long dpid) {
    if (!runningWhole.contains(dpid)) {
      return CompletableFuture.completedFuture(null);
    }
    dirty.add(dpid);
    return waiting.computeIfAbsent(dpid, d -> new CompletableFuture<>());
  }

  /**
   * Reconciles the whole switch in turn; completes once a reconcile that read the desired state of
   * now is done, at once if the switch is not {@code ready}.
   */
  CompletableFuture<Void> request(long dpid) {
    if (!ready.test(dpid)) {
      return CompletableFuture.completedFuture(null);
    }
    if (running.contains(dpid)) {
      dirty.add(dpid);
      return waiting.computeIfAbsent(dpid, d -> new CompletableFuture<>());
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    start(dpid, () -> reconcile.apply(dpid), true, done);
    return done;
  }

  /**
   * Runs a scoped reconcile of the switch ({@code work} starts it, reading the switch when called)
   * in turn with the switch's other reconciles; completes as it does.
   */
  CompletableFuture<Void> requestScoped(long dpid, Supplier<CompletableFuture<?>> work) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (running.contains(dpid)) {
      scoped.computeIfAbsent(dpid, d -> new ArrayDeque<>()).add(new Scoped(work, done));
    } else {
      start(dpid, work, false, done);
    }
    return done;
  }

  private void start(
      long dpid, Supplier<CompletableFuture<?>> work, boolean whole, CompletableFuture<Void> done) {
    running.add(dpid);
    if (whole) {
      runningWhole.add(dpid);
    }
    CompletableFuture<?> f;
    try {
      f = work.get();
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    f.whenComplete((r, e) -> loop.execute(() -> finished(dpid, e, done)));
  }

  private void finished(long dpid, Throwable e, CompletableFuture<Void> done) {
    running.remove(dpid);
    runningWhole.remove(dpid);
    complete(done, e);
    ArrayDeque<Scoped> queue = scoped.get(dpid);
    if (queue != null) {
      Scoped next = queue.poll();
      if (queue.isEmpty()) {
        scoped.remove(dpid);
      }
      if (next != null) {
        start(dpid, next.work(), false, next.done());
        return; // a whole-switch rerun waits for its turn after
      }
    }
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
