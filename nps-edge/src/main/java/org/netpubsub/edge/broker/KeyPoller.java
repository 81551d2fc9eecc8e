package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * An agent's datagram keys from the coordinator (docs/security.md): fetched once before the first
 * datagram ({@link #fetch}, refused with one line if that fails), then polled every {@code
 * interval} on a thread of its own ({@link #start}). Each answer goes through {@link HeldKeys}
 * (keys the coordinator stopped listing stay accepted for one interval) into one {@link
 * DatagramAuth}. A failed poll keeps the keys held; it is counted, and logged when a run of
 * failures starts and ends. Keys are never logged or counted, only how many there are.
 */
final class KeyPoller implements Closeable {
  private static final Logger LOG = Logger.getLogger(KeyPoller.class.getName());

  /** Where the keys come from: the coordinator, or a test's fake. */
  interface Source {
    List<byte[]> fetch() throws CoordinatorClient.CoordinatorException;
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
  private boolean failing;
  private volatile ScheduledExecutorService thread;

  private KeyPoller(
      Source source, LongSupplier clock, Duration interval, List<byte[]> first, long now) {
    this.source = source;
    this.clock = clock;
    this.interval = interval;
    this.held = new HeldKeys(interval.toNanos());
    held.served(first, now);
    this.accepted = held.accepted(now);
    this.auth = DatagramAuth.of(accepted);
  }

  /**
   * The first fetch, before the agent sends anything; an {@link IOException} with one clear line if
   * the coordinator is unreachable, refuses ({@code 401}, {@code 403}, {@code 404}) or answers
   * unusable keys. {@code clock}: monotonic nanoseconds ({@code System::nanoTime}).
   */
  static KeyPoller fetch(Source source, Duration interval, LongSupplier clock) throws IOException {
    try {
      return new KeyPoller(source, clock, interval, source.fetch(), clock.getAsLong());
    } catch (CoordinatorClient.CoordinatorException | IllegalArgumentException e) {
      throw new IOException(
          "cannot fetch the datagram keys from the coordinator: " + e.getMessage());
    }
  }

  /** The authentication the agent seals and checks with; its keys change as polls say. */
  DatagramAuth auth() {
    return auth;
  }

  /** Polls every interval on a daemon thread until {@link #close}. */
  synchronized void start(String edge) {
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-agent-keys-" + edge).unstarted(r));
    long every = interval.toNanos();
    thread.scheduleWithFixedDelay(this::poll, every, every, TimeUnit.NANOSECONDS);
  }

  /** One poll: asks the coordinator, and applies the answer (or keeps the keys on a failure). */
  synchronized void poll() {
    polls.incrementAndGet();
    long now;
    try {
      List<byte[]> keys = source.fetch();
      DatagramAuth.of(keys); // checks them (lengths) before anything is replaced
      now = clock.getAsLong();
      if (held.served(keys, now)) {
        rotations.incrementAndGet();
        LOG.info(
            "datagram keys: the coordinator rotated the signing key (" + keys.size() + " keys)");
      }
      if (failing) {
        LOG.info("datagram keys: the coordinator answers again");
        failing = false;
      }
    } catch (CoordinatorClient.CoordinatorException | RuntimeException e) {
      failures.incrementAndGet();
      if (!failing) {
        LOG.warning("datagram keys: poll failed, keeping the keys held: " + e.getMessage());
        failing = true;
      }
      now = clock.getAsLong(); // a key in grace still expires while the coordinator is away
    }
    List<byte[]> next = held.accepted(now);
    if (!DatagramAuth.sameKeys(next, accepted)) {
      auth.update(next);
      accepted = next;
    }
  }

  /** {@code key_polls}, {@code key_poll_failures}, {@code key_rotations}, {@code keys_held}. */
  Map<String, Long> counters() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("key_polls", polls.get());
    m.put("key_poll_failures", failures.get());
    m.put("key_rotations", rotations.get());
    m.put("keys_held", (long) auth.keyCount());
    return m;
  }

  @Override
  public void close() {
    if (thread != null) {
      thread.shutdownNow();
    }
  }
}
