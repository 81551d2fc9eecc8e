package org.netpubsub.edge.coordinator;

import java.io.Closeable;
import java.io.IOException;
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
 * "Revocation"). The {@link RevokedList} is asked at every keys request, registration and report,
 * and by a sweep every {@link #SWEEP}; when its list changed (and at every sweep) every registered
 * edge it names is removed, in one store transaction ({@link CoordinatorService#removeRevoked}): it
 * stops being a target of anyone's routes and its filters stop counting, exactly as if it had left.
 * A revoked edge's registration and reports are then refused (403, counted in {@code
 * nps_http_auth_refused_total}), so it cannot come back until the operator takes its name out of
 * the file.
 */
final class Revocations implements Closeable {
  private static final Logger LOG = Logger.getLogger(Revocations.class.getName());

  /**
   * How often the file is read without a request asking (an edge revoked while no agent asks for
   * keys still leaves routing within this; tests choose shorter).
   */
  static final Duration SWEEP = Duration.ofSeconds(5);

  private final RevokedList list; // null: nothing is revoked here
  private final RevocationRotation rotation; // null: revocations rotate no keys here
  private final CoordinatorService service;
  private final AtomicLong removed = new AtomicLong();
  private final AtomicLong rotationFailures = new AtomicLong();
  private final ScheduledExecutorService sweeper;
  private volatile Set<String> swept; // the list last removed from routing (written under this)

  /**
   * Sweeps once now (a restarted coordinator may hold a revoked edge), then every {@code sweep}.
   */
  Revocations(
      RevokedList list, CoordinatorService service, Duration sweep, RevocationRotation rotation) {
    this.list = list;
    this.service = service;
    this.rotation = rotation;
    if (list == null) {
      sweeper = null;
      return;
    }
    sweep(list.edges());
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-coordinator-revocations").unstarted(r));
    long every = sweep.toNanos();
    sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.NANOSECONDS);
  }

  /**
   * The revoked edges now (the file read again if it changed), after removing any still registered
   * if the list changed since the last removal. An unchanged list takes no lock and writes nothing
   * (but a rotation's end of grace, with {@code --rotate-on-revoke}): its edges are refused at
   * registration ({@link #refuse}), and a registration that raced the edit that revoked it is
   * removed by the next sweep, which removes whatever the list is.
   */
  Set<String> now() {
    if (list == null) {
      return Set.of();
    }
    Set<String> revoked = list.edges();
    if (revoked.equals(swept)) {
      rotate(revoked); // a grace may have ended since the last read
      return revoked;
    }
    return sweep(revoked);
  }

  private synchronized Set<String> sweep(Set<String> revoked) {
    if (!revoked.isEmpty()) {
      removed.addAndGet(service.removeRevoked(revoked));
    }
    swept = revoked;
    rotate(revoked);
    return revoked;
  }

  /**
   * Rotates the deployment keys for a new revocation, before any keys answer that lists it is made,
   * or drops the old ones after their grace (with {@code --rotate-on-revoke}).
   */
  private void rotate(Set<String> revoked) {
    if (rotation == null) {
      return;
    }
    try {
      rotation.revoked(revoked);
    } catch (IOException | RuntimeException e) { // the next read or sweep tries again
      rotationFailures.incrementAndGet();
      LOG.log(Level.WARNING, "revoked edges: rotating the deployment keys failed: " + e, e);
    }
  }

  /** Rotations of the deployment keys done for revocations. */
  long rotations() {
    return rotation == null ? 0 : rotation.rotations();
  }

  /** Rotations or drops of old keys that failed (tried again at the next read). */
  long rotationFailures() {
    return rotationFailures.get();
  }

  boolean rotates() {
    return rotation != null;
  }

  /** A 403 for {@code principal} if edge {@code name} is revoked: {@code what} is refused. */
  void refuse(String name, Principal principal, String what) {
    if (now().contains(name)) {
      throw principal.forbidden(what + " for edge '" + name + "': it is revoked");
    }
  }

  private void sweep() {
    try {
      sweep(list.edges());
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
