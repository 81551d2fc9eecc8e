package org.netpubsub.controller.nbi;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import org.netpubsub.network.nbi.NbiTopic;

/**
 * The gateway's side of remote app registrations: each request that registers, subscribes or says
 * BYE goes to the bus and to the {@link RemoteAppLeases} together, so the bus holds no remote app
 * beyond the caps and none whose client went silent or lost its right (issue 27). Counts the
 * refusals, expiries and revocations. Called from the gateway's control and answer threads, and
 * from a clients reload.
 */
final class RemoteAppRegistry {
  private static final System.Logger LOG = System.getLogger(RemoteAppRegistry.class.getName());

  /** How often the control thread looks for expired registrations. */
  static final long SWEEP_MS = 1000;

  private final NorthboundBus bus;
  private final RemoteAppLeases leases;
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong expired = new AtomicLong();
  private final AtomicLong revoked = new AtomicLong();
  private long lastSweep; // control thread only

  RemoteAppRegistry(NorthboundBus bus, RemoteAppLeases.Limits limits) {
    this.bus = bus;
    this.leases = new RemoteAppLeases(limits);
  }

  /** Registrations and subscriptions refused at a cap ({@link RemoteAppLeases.Limits}). */
  long refused() {
    return refused.get();
  }

  /** Registrations dropped because their app went silent. */
  long expired() {
    return expired.get();
  }

  /** Registrations dropped because a clients reload took their client's right away. */
  long revoked() {
    return revoked.get();
  }

  /**
   * Registers {@code app} for {@code user} (null: no CURVE) within the caps, on the bus and as a
   * lease: empty, or why not (counted). A known app's lease is renewed.
   *
   * @throws IllegalArgumentException if an in-process app has the name
   */
  Optional<String> register(String user, String app, long now) {
    boolean known = leases.touch(app, now);
    Optional<String> no = leases.admit(user, app, now);
    if (no.isPresent()) {
      refused.incrementAndGet();
      return no;
    }
    try {
      bus.registerRemote(app);
    } catch (IllegalArgumentException e) {
      if (!known) {
        leases.release(app); // an in-process app's name: no lease for it
      }
      throw e;
    }
    return Optional.empty();
  }

  /** Subscribes {@code app}, registering it if needed, within the caps: empty, or why not. */
  Optional<String> subscribe(String user, String app, NbiTopic topic, long now) {
    Optional<String> no = register(user, app, now);
    if (no.isEmpty()) {
      no = leases.addTopic(app);
      no.ifPresent(why -> refused.incrementAndGet());
    }
    if (no.isEmpty() && !bus.subscribeRemote(app, topic)) {
      leases.removeTopic(app); // subscribed already: no new topic
    }
    return no;
  }

  void unsubscribe(String app, NbiTopic topic, long now) {
    leases.touch(app, now);
    bus.unsubscribeRemote(app, topic);
    leases.removeTopic(app);
  }

  void bye(String app) {
    bus.unregisterRemote(app);
    leases.release(app);
  }

  /** Renews {@code app}'s lease (any request or answer naming it); false if it holds none. */
  boolean touch(String app, long now) {
    return leases.touch(app, now);
  }

  /** Unregisters the apps whose client may no longer act as them (a clients reload). */
  void revoke(BiPredicate<String, String> mayActAs) {
    List<String> gone = leases.revoke(mayActAs);
    gone.forEach(this::unregister);
    revoked.addAndGet(gone.size());
  }

  /** Unregisters the apps silent for too long; at most once per {@link #SWEEP_MS}. */
  void sweep(long now) {
    if (now - lastSweep < SWEEP_MS) {
      return;
    }
    lastSweep = now;
    List<String> gone = leases.expire(now);
    if (!gone.isEmpty()) {
      gone.forEach(this::unregister);
      expired.addAndGet(gone.size());
      LOG.log(
          System.Logger.Level.INFO,
          "remote apps silent for over {0}, unregistered: {1}",
          leases.limits().silence(),
          gone);
    }
  }

  private void unregister(String app) {
    try {
      bus.unregisterRemote(app);
    } catch (IllegalArgumentException e) {
      // gone already (a BYE crossed the expiry)
    }
  }
}
