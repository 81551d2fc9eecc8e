package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.index.SpatialIndex;

/**
 * A principals reload re-cuts the standing requests (docs/security-rest.md, "The principals file"):
 * each request of a principal whose region changed is covered again from {@code filter ∧ new
 * region} under the current index, as a new request would be. An unchanged cover changes nothing
 * (only the region recorded, and stored); a changed one replaces the request under the same id,
 * host and port ({@link RoutingEngine#replace}); an empty cover, a principal removed or left
 * without the right withdraws it. Requests queued after the re-cut began are cut to the new regions
 * already ({@link #access}). The decision per request ({@link #step}) is pure; {@link #run} carries
 * the steps out on the service's maps and engine.
 */
public final class RegionRecut {
  /** The principals' regions in force, by principal name. */
  @FunctionalInterface
  public interface Regions {
    /**
     * The region {@code owner} may send {@code kind} requests in: empty if it may not, or there is
     * no such principal any more.
     */
    Optional<Region> of(String owner, PubSubRequest.Kind kind);
  }

  /** A region: a filter, or anywhere (no filter). */
  public record Region(Optional<String> filter) {
    public static final Region ANYWHERE = new Region(Optional.empty());
  }

  /**
   * What a re-cut did: requests replaced by a new cover, withdrawn, given a new region with the
   * same cover, left alone (region unchanged), and not re-cut because the engine could not then
   * (not ready, a layout switch, an unsafe change: the old cover stands; logged).
   */
  public record Outcome(int recut, int withdrawn, int relabelled, int unchanged, int failed) {}

  /** One request's step. */
  sealed interface Step {
    /** Its region is the same: nothing to do. */
    record Keep() implements Step {}

    /** Another region, the same cover: only the request's record changes. */
    record Relabel(PubSubRequest next) implements Step {}

    /** Another cover: the request is replaced by {@code next}. */
    record Recut(PubSubRequest next) implements Step {}

    /** No cover any more: the request is withdrawn. */
    record Withdraw(String why) implements Step {}
  }

  /** How a replacement ended. */
  enum Result {
    /** The new cover stands (perhaps not yet acknowledged: it is being reconciled). */
    RECUT,
    /** Withdrawn meanwhile by its owner: nothing to count. */
    GONE,
    /** Not carried out: the old cover stands. */
    KEPT,
    /** Withdrawn: the new cover could not join (its host left). */
    WITHDRAWN
  }

  private final PubSubService service;
  private final RoutingEngine engine;
  // the service's: requests hold it (read) from their check to their queueing; a layout switch
  // takes it (write) to start
  private final ReentrantReadWriteLock switchLock;
  private final BooleanSupplier switching;
  private volatile Regions latest; // null: no reload yet, requests keep the region they came with
  private CompletableFuture<Outcome> last = CompletableFuture.completedFuture(null); // guarded

  RegionRecut(
      PubSubService service,
      RoutingEngine engine,
      ReentrantReadWriteLock switchLock,
      BooleanSupplier switching) {
    this.service = service;
    this.engine = engine;
    this.switchLock = switchLock;
    this.switching = switching;
  }

  /**
   * Re-cuts the service's standing requests to {@code now}, and cuts new requests to it from now
   * on. Re-cuts run one after another (one in flight would otherwise replace a request the other is
   * replacing), each with the regions of the last reload. During a layout switch it tries again
   * every second until the switch ended.
   */
  CompletableFuture<Outcome> recut(Regions now) {
    latest = now; // new requests: a request queued before is in live at the snapshot below
    synchronized (this) {
      // never on the thread that completed the last one (the controller loop, perhaps)
      CompletableFuture<Outcome> next =
          last.handle((o, err) -> null)
              .thenComposeAsync(x -> once(), t -> Thread.ofVirtual().name("nps-recut").start(t));
      last = next;
      return next;
    }
  }

  private CompletableFuture<Outcome> once() {
    Regions now = latest;
    switchLock.writeLock().lock(); // every request queued before is in live
    try {
      if (switching.getAsBoolean()) {
        return CompletableFuture.runAsync(() -> {}, retryLater()).thenCompose(x -> once());
      }
      switchLock.readLock().lock(); // downgraded: no switch starts before every change is queued
    } finally {
      switchLock.writeLock().unlock();
    }
    try {
      Map<String, String> owners = new HashMap<>();
      service.grants.forEach((id, a) -> owners.put(id, a.owner()));
      return run(
          List.copyOf(service.live.values()), owners, now, service.index(), service.limits());
    } finally {
      switchLock.readLock().unlock();
    }
  }

  /**
   * The step for standing request {@code r} when its principal may now send it within {@code now}
   * (empty: not at all): pure, but for the CPU of covering the filter.
   */
  static Step step(
      PubSubRequest r,
      Optional<Region> now,
      SpatialIndex index,
      PubSubLimits limits,
      boolean coversByCells) {
    if (now.isEmpty()) {
      return new Step.Withdraw(
          "its principal may no longer "
              + (r.kind() == PubSubRequest.Kind.SUBSCRIPTION ? "subscribe" : "advertise"));
    }
    Optional<String> region = now.get().filter();
    if (region.equals(r.region())) {
      return new Step.Keep();
    }
    FilterCells.Compiled c;
    try {
      c = covered(index, limits, r.filter(), region);
    } catch (RequestRefusedException | InvalidInputException e) {
      return new Step.Withdraw(e.getMessage()); // wholly outside the new region, or over budget
    }
    PubSubRequest next =
        new PubSubRequest(
            r.id(), r.kind(), r.host(), r.filter(), r.normalForm(), r.port(), c.cells(), region);
    boolean same = c.cells().equals(r.cells()) && (coversByCells || sameCut(index, limits, r, c));
    return same ? new Step.Relabel(next) : new Step.Recut(next);
  }

  private static boolean sameCut(
      SpatialIndex index, PubSubLimits limits, PubSubRequest r, FilterCells.Compiled c) {
    try {
      return covered(index, limits, r.filter(), r.region()).cut().equals(c.cut());
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The cover of {@code filter ∧ region} under {@code index}, as a new request's. */
  static FilterCells.Compiled covered(
      SpatialIndex index, PubSubLimits limits, String filter, Optional<String> region) {
    return FilterCells.compile(index, filter, limits.maxFilterBytes(), limits.maxCells(), region);
  }

  /** How a replacement's answer ended ({@code err} null: carried out). */
  static Result result(Throwable err) {
    if (err == null) {
      return Result.RECUT;
    }
    Throwable cause = err instanceof CompletionException c ? c.getCause() : err;
    if (!(cause instanceof RequestRefusedException r)) {
      return Result.KEPT; // e.g. the controller closing: nothing known to have changed
    }
    return switch (r.refused()) {
      case Refused x when x.requestStands() -> Result.RECUT;
      case Refused.Unknown u -> Result.GONE;
      case Refused.NotReady n -> Result.KEPT;
      case Refused.Unavailable u -> Result.KEPT;
      case Refused.Unsafe u -> Result.KEPT;
      default -> Result.WITHDRAWN;
    };
  }

  /**
   * A withdrawal after which the addition of {@code next} failed: the request no longer stands
   * (default {@link RoutingEngine#replace}).
   */
  static Throwable withdrawnBy(Throwable err) {
    Throwable cause = err instanceof CompletionException c ? c.getCause() : err;
    if (cause instanceof RequestRefusedException r && r.refused().requestStands()) {
      return cause;
    }
    return new RequestRefusedException(
        new Refused.Conflict("withdrawn: its new cover was refused: " + cause.getMessage()));
  }

  /**
   * {@code access} with the region its principal holds now, for a request queued after a reload (it
   * may have been authenticated under the principals before): 403 if the principal may no longer
   * send it.
   */
  Access access(Access access, PubSubRequest.Kind kind) {
    Regions now = latest;
    if (now == null || access.owner().isEmpty()) {
      return access;
    }
    Region region =
        now.of(access.owner(), kind)
            .orElseThrow(
                () ->
                    new RequestRefusedException(
                        new Refused.Forbidden(
                            "principal '"
                                + access.owner()
                                + "' has no region to "
                                + (kind == PubSubRequest.Kind.SUBSCRIPTION
                                    ? "subscribe"
                                    : "advertise")
                                + " in any more")));
    return new Access(access.owner(), access.admin(), region.filter(), access.rateKey());
  }

  /**
   * Carries out the steps for {@code standing} (id to owner, snapshot of the service's requests),
   * covering under {@code index}; the caller holds the service's switch lock (read), so no layout
   * switch starts before every change is queued on the engine. Completes when every change did.
   */
  private CompletableFuture<Outcome> run(
      List<PubSubRequest> standing,
      Map<String, String> owners,
      Regions now,
      SpatialIndex index,
      PubSubLimits limits) {
    AtomicInteger recut = new AtomicInteger();
    AtomicInteger withdrawn = new AtomicInteger();
    AtomicInteger relabelled = new AtomicInteger();
    AtomicInteger unchanged = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<CompletableFuture<?>> pending = new ArrayList<>();
    boolean byCells = engine.coversByCells();
    for (PubSubRequest r : standing) {
      String owner = owners.get(r.id());
      if (owner == null || owner.isEmpty()) {
        unchanged.incrementAndGet(); // the Java API's requests have no principal
        continue;
      }
      long start = System.nanoTime();
      switch (step(r, now.of(owner, r.kind()), index, limits, byCells)) {
        case Step.Keep k -> unchanged.incrementAndGet();
        case Step.Relabel(PubSubRequest next) -> {
          if (swap(r, next)) {
            relabelled.incrementAndGet();
            pending.add(engine.relabel(next));
          }
        }
        case Step.Recut(PubSubRequest next) -> {
          if (swap(r, next)) {
            pending.add(
                replaced(r, next, start)
                    .handle((o, err) -> result(err))
                    .thenAccept(
                        res -> {
                          switch (res) {
                            case RECUT -> {
                              recut.incrementAndGet();
                              if (!service.live.containsKey(next.id())) {
                                // its owner withdrew it between the engine's withdrawal and
                                // addition (off the loop): it must not stand
                                withdrawQuietly(next);
                              } else if (engine.shared()) { // withdrawn elsewhere: forgotten
                                engine.goneElsewhere(next.id()).thenRun(() -> forget(next));
                              }
                            }
                            case WITHDRAWN -> {
                              forget(next);
                              withdrawn.incrementAndGet();
                            }
                            case KEPT -> {
                              swap(next, r);
                              failed.incrementAndGet();
                            }
                            case GONE -> {}
                          }
                        }));
          }
        }
        case Step.Withdraw w -> {
          service.keyed.remove(r.id());
          if (forget(r)) {
            withdrawn.incrementAndGet();
            pending.add(engine.submit(r, true, start).handle((o, err) -> null));
          }
        }
      }
    }
    return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
        .handle(
            (v, err) ->
                new Outcome(
                    recut.get(), withdrawn.get(), relabelled.get(), unchanged.get(), failed.get()));
  }

  private void withdrawQuietly(PubSubRequest r) {
    try {
      engine.submit(r, true, System.nanoTime());
    } catch (RuntimeException e) {
      // gone already
    }
  }

  private CompletableFuture<RequestOutcome> replaced(PubSubRequest r, PubSubRequest next, long t) {
    try {
      return engine.replace(r, next, t);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@code next} replaces {@code r} in the service, if {@code r} still stands there. */
  private boolean swap(PubSubRequest r, PubSubRequest next) {
    if (!service.live.replace(r.id(), r, next)) {
      return false; // withdrawn (or replaced) meanwhile
    }
    service.grants.computeIfPresent(
        r.id(), (id, a) -> new Access(a.owner(), a.admin(), next.region(), a.rateKey()));
    return true;
  }

  /** The request stands no more in the service; false if it was gone already. */
  private boolean forget(PubSubRequest r) {
    if (!service.live.remove(r.id(), r)) {
      return false;
    }
    service.grants.remove(r.id());
    service.livePerHost.merge(r.host(), -1, Integer::sum);
    return true;
  }

  private static Executor retryLater() {
    return CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS);
  }
}
