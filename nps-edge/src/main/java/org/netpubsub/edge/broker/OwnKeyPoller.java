package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * An own-key agent's keys from the coordinator ({@code --own-key-only --coordinator-keys},
 * docs/security-datagrams.md, "Per-agent keys from the coordinator"): its own key, its senders'
 * keys and the revoked edges, fetched once before the first datagram ({@link #fetch}: one line if
 * that fails), then refreshed on a thread of its own ({@link #start}) and handed to the agent's
 * {@link AgentKeys} (a volatile swap each: the receive loop never waits for a refresh). A failed
 * refresh keeps the last good set and backs off ({@link #delay}: doubling from the interval up to
 * {@link #MAX_BACKOFF} or the interval if longer); the first answer after it resets the interval.
 * Its own keys go through {@link HeldKeys} as a deployment-key agent's do (a key the coordinator
 * stops listing stays accepted for one interval). Keys are never logged or counted, only how many.
 */
final class OwnKeyPoller implements Closeable {
  private static final Logger LOG = Logger.getLogger(OwnKeyPoller.class.getName());

  /** The longest wait between refreshes while the coordinator fails (unless the interval is). */
  static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

  /** One answer: the edge's own keys (the first signing), its senders' by name, the revoked. */
  record Served(List<byte[]> own, Map<String, List<byte[]>> senders, Set<String> revoked) {}

  /** Where the answers come from: the coordinator, or a test's fake. */
  interface Source {
    Served fetch() throws CoordinatorClient.CoordinatorException;
  }

  private final Source source;
  private final LongSupplier clock;
  private final Duration interval;
  private final HeldKeys held;
  private final DatagramAuth auth;
  private final AtomicLong polls = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong rotations = new AtomicLong();
  private List<byte[]> accepted; // what auth holds
  private volatile Served last; // the last good answer (read by counters() without the lock)
  private AgentKeys target; // set by start
  private Map<String, List<String>> appliedSenders; // what target holds, as hex
  private int failing; // refreshes failed in a row
  private volatile ScheduledExecutorService thread;

  private OwnKeyPoller(Source source, LongSupplier clock, Duration interval, Served first) {
    this.source = source;
    this.clock = clock;
    this.interval = interval;
    this.held = new HeldKeys(interval.toNanos());
    checked(first);
    held.served(first.own(), clock.getAsLong());
    this.accepted = held.accepted(clock.getAsLong());
    this.auth = DatagramAuth.of(accepted);
    this.last = first;
  }

  /**
   * The first fetch, before the agent sends anything; an {@link IOException} with one clear line if
   * the coordinator is unreachable, refuses ({@code 401}, {@code 403}: not this edge's principal,
   * or the edge is revoked; {@code 404}) or answers unusable keys.
   */
  static OwnKeyPoller fetch(Source source, Duration interval, LongSupplier clock)
      throws IOException {
    try {
      return new OwnKeyPoller(source, clock, interval, source.fetch());
    } catch (CoordinatorClient.CoordinatorException | IllegalArgumentException e) {
      throw new IOException(
          "cannot fetch the agent's own keys from the coordinator: " + e.getMessage());
    }
  }

  /** The agent's own key (it seals with it); its keys change as refreshes say. */
  DatagramAuth auth() {
    return auth;
  }

  /** The senders' keys of the first answer. */
  Map<String, DatagramAuth> senders() {
    return senderAuths(last);
  }

  /** The revoked edges of the first answer. */
  Set<String> revoked() {
    return last.revoked();
  }

  /**
   * The wait before the next refresh after {@code failed} failures in a row: the interval, then
   * doubling, at most {@link #MAX_BACKOFF} (or the interval, if that is longer). Pure.
   */
  static long delay(long intervalNanos, int failed) {
    long cap = Math.max(intervalNanos, MAX_BACKOFF.toNanos());
    if (failed <= 0) {
      return intervalNanos;
    }
    int shift = Math.min(failed, 30);
    long d = intervalNanos << shift;
    return d <= 0 || d >> shift != intervalNanos ? cap : Math.min(d, cap);
  }

  /** Refreshes into {@code keys} on a daemon thread until {@link #close}. */
  synchronized void start(String edge, AgentKeys keys) {
    target = keys;
    appliedSenders = hex(last);
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-agent-own-keys-" + edge).unstarted(r));
    schedule(interval.toNanos());
  }

  private void schedule(long nanos) {
    ScheduledExecutorService t = thread;
    if (t != null && !t.isShutdown()) {
      t.schedule(this::refresh, nanos, TimeUnit.NANOSECONDS);
    }
  }

  private void refresh() {
    long next;
    synchronized (this) {
      poll();
      next = delay(interval.toNanos(), failing);
    }
    schedule(next);
  }

  /** One refresh: asks the coordinator and applies the answer, or keeps the last good set. */
  synchronized void poll() {
    polls.incrementAndGet();
    long now;
    try {
      Served s = source.fetch();
      checked(s);
      now = clock.getAsLong();
      if (held.served(s.own(), now)) {
        rotations.incrementAndGet();
        LOG.info("own keys: the coordinator rotated this agent's signing key");
      }
      if (target != null) {
        Map<String, List<String>> hex = hex(s);
        if (!hex.equals(appliedSenders)) { // HMAC states are made only when something changed
          target.senders(senderAuths(s));
          appliedSenders = hex;
        }
        target.revoke(s.revoked());
      }
      last = s;
      if (failing > 0) {
        LOG.info("own keys: the coordinator answers again");
        failing = 0;
      }
    } catch (CoordinatorClient.CoordinatorException | RuntimeException e) {
      failures.incrementAndGet();
      if (failing == 0) {
        LOG.warning("own keys: refresh failed, keeping the last good set: " + e.getMessage());
      }
      failing++;
      now = clock.getAsLong(); // an own key in grace still expires while the coordinator is away
    }
    List<byte[]> nextKeys = held.accepted(now);
    if (!DatagramAuth.sameKeys(nextKeys, accepted)) {
      auth.update(nextKeys);
      accepted = nextKeys;
    }
  }

  /** Checks every key and the bounds before anything is replaced. */
  private static void checked(Served s) {
    DatagramAuth.of(s.own());
    if (s.senders().size() > AgentKeys.MAX_SENDERS || s.revoked().size() > AgentKeys.MAX_SENDERS) {
      throw new IllegalArgumentException("more than " + AgentKeys.MAX_SENDERS + " edges");
    }
    s.senders().values().forEach(DatagramAuth::of);
  }

  private static Map<String, List<String>> hex(Served s) {
    Map<String, List<String>> m = new HashMap<>();
    s.senders()
        .forEach((e, k) -> m.put(e, k.stream().map(java.util.HexFormat.of()::formatHex).toList()));
    return m;
  }

  private static Map<String, DatagramAuth> senderAuths(Served s) {
    Map<String, DatagramAuth> m = new HashMap<>();
    s.senders().forEach((e, k) -> m.put(e, DatagramAuth.of(k)));
    return m;
  }

  /**
   * {@code key_polls}, {@code key_poll_failures}, {@code key_rotations}, {@code keys_held}, {@code
   * sender_keys_held}, {@code edges_revoked}. Takes no lock: a refresh may hold it for a whole
   * request to the coordinator.
   */
  Map<String, Long> counters() {
    Served s = last;
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("key_polls", polls.get());
    m.put("key_poll_failures", failures.get());
    m.put("key_rotations", rotations.get());
    m.put("keys_held", (long) auth.keyCount());
    m.put("sender_keys_held", (long) s.senders().size());
    m.put("edges_revoked", (long) s.revoked().size());
    return m;
  }

  @Override
  public void close() { // no lock: a refresh may hold it for a whole request
    if (thread != null) {
      thread.shutdownNow();
    }
  }
}
