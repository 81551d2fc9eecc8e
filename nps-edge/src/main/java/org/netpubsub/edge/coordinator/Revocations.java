package org.netpubsub.edge.coordinator;

import java.io.Closeable;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.netpubsub.http.Principal;

/**
 * Keeps the edges of {@code --revoked-edges} out of routing (docs/security-datagrams.md,
 * "Revocation"). Each read of the {@link RevokedList} (every keys request, every registration and
 * report, and a sweep every {@link #SWEEP}) first removes every registered edge it names, in one
 * store transaction ({@link CoordinatorService#removeRevoked}): it stops being a target of anyone's
 * routes and its filters stop counting, exactly as if it had left. A revoked edge's registration
 * and reports are then refused (403, counted in {@code nps_http_auth_refused_total}), so it cannot
 * come back until the operator takes its name out of the file.
 */
final class Revocations implements Closeable {
  private static final Logger LOG = Logger.getLogger(Revocations.class.getName());

  /**
   * How often the file is read without a request asking (an edge revoked while no agent asks for
   * keys still leaves routing within this; tests choose shorter).
   */
  static final Duration SWEEP = Duration.ofSeconds(5);

  private final RevokedList list; // null: nothing is revoked here
  private final CoordinatorService service;
  private final AtomicLong removed = new AtomicLong();
  private final ScheduledExecutorService sweeper;

  /**
   * Sweeps once now (a restarted coordinator may hold a revoked edge), then every {@code sweep}.
   */
  Revocations(RevokedList list, CoordinatorService service, Duration sweep) {
    this.list = list;
    this.service = service;
    if (list == null) {
      sweeper = null;
      return;
    }
    now();
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-coordinator-revocations").unstarted(r));
    long every = sweep.toNanos();
    sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.NANOSECONDS);
  }

  /** The revoked edges now (the file read again), after removing any still registered. */
  Set<String> now() {
    if (list == null) {
      return Set.of();
    }
    Set<String> revoked = list.edges();
    if (!revoked.isEmpty()) {
      removed.addAndGet(service.removeRevoked(revoked));
    }
    return revoked;
  }

  /** A 403 for {@code principal} if edge {@code name} is revoked: {@code what} is refused. */
  void refuse(String name, Principal principal, String what) {
    if (now().contains(name)) {
      throw principal.forbidden(what + " for edge '" + name + "': it is revoked");
    }
  }

  private void sweep() {
    try {
      now();
    } catch (RuntimeException e) { // a database error: the next sweep or request tries again
      LOG.log(Level.WARNING, "revoked edges: removing them from routing failed: " + e, e);
    }
  }

  /** Registered edges removed from routing because they were revoked. */
  long removed() {
    return removed.get();
  }

  /** Reads of the file that failed and kept the list held. */
  long invalidReads() {
    return list == null ? 0 : list.invalidReads();
  }

  boolean enabled() {
    return list != null;
  }

  @Override
  public void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
  }
}
