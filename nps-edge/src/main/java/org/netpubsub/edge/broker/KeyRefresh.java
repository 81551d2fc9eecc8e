package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * The one refresh loop behind {@link KeyPoller} (an agent's deployment keys) and {@link
 * OwnKeyPoller} (an own-key agent's own key, senders and revoked edges), over the two answer kinds
 * ({@link Kind}): the first answer before the agent sends anything, then one on a thread of its own
 * every interval, or after a failure every {@link #delay} if the kind backs off. Each good answer's
 * own keys go through {@link HeldKeys} (a key the coordinator stops listing stays accepted for one
 * interval) into one {@link DatagramAuth}; a failed one keeps what is held, is counted, and is
 * logged when a run of failures starts and ends. {@link #soon} asks for one refresh ahead of time,
 * at most once per {@link #EARLY_EVERY} whatever calls it. Keys are never logged or counted, only
 * how many there are.
 */
final class KeyRefresh<A> implements Closeable {
  private static final Logger LOG = Logger.getLogger(KeyRefresh.class.getName());

  /** The longest wait between refreshes while the coordinator fails (unless the interval is). */
  static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

  /**
   * The least time between two refreshes asked for by {@link #soon}: what a remote sending
   * datagrams in names the agent holds no key of can make it ask the coordinator, at most.
   */
  static final Duration EARLY_EVERY = Duration.ofSeconds(5);

  /** Where the answers come from: the coordinator, or a test's fake. */
  interface Source<A> {
    A fetch() throws CoordinatorClient.CoordinatorException;
  }

  /** What differs between the two answers. Called under the refresh's lock. */
  interface Kind<A> {
    /** Checks the whole answer before anything is replaced ({@link IllegalArgumentException}). */
    void check(A answer);

    /** The agent's own keys in the answer, the first signing. */
    List<byte[]> keys(A answer);

    /** Applies the rest of a good answer (an own-key agent's senders and revoked edges). */
    void apply(A answer);

    /** Logged when the signing key changed (no key in it). */
    String rotated(A answer);
  }

  /** The words of the log lines: {@code what: failed, ...} and {@code what: ...answers again}. */
  record Wording(String what, String failed) {}

  private final Source<A> source;
  private final Kind<A> kind;
  private final Wording words;
  private final LongSupplier clock;
  private final Duration interval;
  private final boolean backoff;
  private final HeldKeys held;
  private final DatagramAuth auth;
  private final AtomicLong polls = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong rotations = new AtomicLong();
  private final AtomicLong early = new AtomicLong();
  private final AtomicLong earlyAt; // clock time of the last refresh soon() asked for
  private List<byte[]> accepted; // what auth holds
  private volatile int failing; // refreshes failed in a row (written under the lock)
  private volatile ScheduledExecutorService thread;

  /**
   * Takes {@code first} (already fetched: the caller words its failure); {@link
   * IllegalArgumentException} if it is unusable. {@code clock}: monotonic nanoseconds.
   */
  KeyRefresh(
      Source<A> source,
      Kind<A> kind,
      Wording words,
      LongSupplier clock,
      Duration interval,
      boolean backoff,
      A first) {
    this.source = source;
    this.kind = kind;
    this.words = words;
    this.clock = clock;
    this.interval = interval;
    this.backoff = backoff;
    this.held = new HeldKeys(interval.toNanos());
    kind.check(first);
    long now = clock.getAsLong();
    held.served(kind.keys(first), now);
    this.accepted = held.accepted(now);
    this.auth = DatagramAuth.of(accepted);
    this.earlyAt = new AtomicLong(now - EARLY_EVERY.toNanos());
  }

  /** The agent's own keys (it seals with the first); they change as answers say. */
  DatagramAuth auth() {
    return auth;
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

  /** Refreshes on a daemon thread named {@code threadName} until {@link #close}. */
  synchronized void start(String threadName) {
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name(threadName).unstarted(r));
    schedule(interval.toNanos());
  }

  private void schedule(long nanos) {
    ScheduledExecutorService t = thread;
    if (t != null && !t.isShutdown()) {
      try {
        t.schedule(this::refresh, nanos, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        // closed meanwhile
      }
    }
  }

  private void refresh() {
    poll();
    schedule(backoff ? delay(interval.toNanos(), failing) : interval.toNanos());
  }

  /**
   * Asks for one refresh now, on the refresh thread (never waits): at most one per {@link
   * #EARLY_EVERY} whatever calls it, none before {@link #start}, and none while the coordinator
   * fails (the backoff holds). Returns whether one was asked for.
   */
  boolean soon() {
    ScheduledExecutorService t = thread;
    if (t == null || failing > 0) {
      return false;
    }
    long now = clock.getAsLong();
    long last = earlyAt.get();
    if (now - last < EARLY_EVERY.toNanos() || !earlyAt.compareAndSet(last, now)) {
      return false;
    }
    try {
      t.execute(this::poll);
    } catch (RejectedExecutionException e) {
      return false; // closed
    }
    early.incrementAndGet();
    return true;
  }

  /** One refresh: asks the coordinator and applies the answer, or keeps what is held. */
  synchronized void poll() {
    polls.incrementAndGet();
    long now;
    try {
      A a = source.fetch();
      kind.check(a);
      now = clock.getAsLong();
      if (held.served(kind.keys(a), now)) {
        rotations.incrementAndGet();
        LOG.info(words.what() + ": " + kind.rotated(a));
      }
      kind.apply(a);
      if (failing > 0) {
        LOG.info(words.what() + ": the coordinator answers again");
        failing = 0;
      }
    } catch (CoordinatorClient.CoordinatorException | RuntimeException e) {
      boolean first = failing == 0;
      failing = failing + 1; // before the count: whoever sees the count sees the backoff
      failures.incrementAndGet();
      if (first) {
        LOG.warning(words.what() + ": " + words.failed() + ": " + e.getMessage());
      }
      now = clock.getAsLong(); // a key in grace still expires while the coordinator is away
    }
    List<byte[]> next = held.accepted(now);
    if (!DatagramAuth.sameKeys(next, accepted)) {
      auth.update(next);
      accepted = next;
    }
  }

  /**
   * {@code key_polls}, {@code key_poll_failures}, {@code key_rotations}, {@code keys_held}, and
   * {@code key_early_refreshes} if {@code withEarly}. Takes no lock: a refresh may hold it for a
   * whole request to the coordinator.
   */
  Map<String, Long> counters(boolean withEarly) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("key_polls", polls.get());
    m.put("key_poll_failures", failures.get());
    m.put("key_rotations", rotations.get());
    m.put("keys_held", (long) auth.keyCount());
    if (withEarly) {
      m.put("key_early_refreshes", early.get());
    }
    return m;
  }

  @Override
  public void close() { // no lock: a refresh may hold it for a whole request
    ScheduledExecutorService t = thread;
    if (t != null) {
      t.shutdownNow();
    }
  }
}
