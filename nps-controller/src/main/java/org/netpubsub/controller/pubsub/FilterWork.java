package org.netpubsub.controller.pubsub;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Filter normalisation off the request threads (issue 27): at most {@code threads} filters are
 * worked on at once, so expensive filters take a bounded share of the CPU and other requests
 * ({@code GET /v1/topology}) keep their threads. One sender (a rate-limit key: principal and
 * source) has at most {@link #PER_SENDER} filters in work; up to {@link #PER_SENDER_WAITING} more
 * wait their turn (a client's burst is served, not refused), for at most {@link #WAIT}. Past either
 * bound, or a full queue, the request is refused 429 with the reason. A sender's entry lives only
 * while it has requests here.
 *
 * <p>On top, each principal has a measured share of the CPU ({@link CpuShare}): the thread CPU time
 * its filters took here is summed over the last {@link #WINDOW}, and a principal whose sum is at or
 * over {@link #SHARE} of the pool's capacity in that window (threads × window: 2.5 s of CPU per 10
 * s with one thread) is refused 429 with a Retry-After of when it falls under, before and again
 * after waiting for its turn, while other principals are served. The share is keyed by the
 * authenticated principal (all its source addresses together); without authentication, where
 * everyone is {@code anonymous}, by principal and source.
 *
 * <p>Waiting work is served fairly ({@link FairQueue}): the next filter a pool thread takes is the
 * oldest of the principal with the least CPU use in the window, so another principal's cheap filter
 * waits behind at most the filters already in work, not everything a flooder queued. The pool's
 * threads each take one waiting item per task they run (one task per item), so there is no thread
 * per principal.
 */
final class FilterWork implements AutoCloseable {
  static final int PER_SENDER = 2;
  static final int PER_SENDER_WAITING = 64;
  static final Duration WAIT = Duration.ofSeconds(10);
  static final int QUEUE = 256;
  static final Duration WINDOW = Duration.ofSeconds(10);
  static final double SHARE = 0.25;
  static final int MAX_PRINCIPALS = 4096;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final ThreadPoolExecutor pool;
  private final Map<String, Sender> senders = new HashMap<>(); // guarded by itself
  private final CpuShare share; // guarded by itself
  private final FairQueue<FutureTask<?>> waiting = new FairQueue<>(QUEUE); // guarded by share
  private final LongSupplier clock;

  /** One sender's requests here, and the turns its filters take. */
  private static final class Sender {
    int requests;
    final Semaphore turns = new Semaphore(PER_SENDER, true);
  }

  FilterWork(int threads) {
    this(threads, WINDOW, SHARE, System::nanoTime);
  }

  /** {@code share} of {@code threads} × {@code window} of CPU per principal in any window. */
  FilterWork(int threads, Duration window, double share, LongSupplier clock) {
    this.share =
        new CpuShare(window.toNanos(), (long) (share * threads * window.toNanos()), MAX_PRINCIPALS);
    this.clock = clock;
    pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            // one task per item in `waiting`, so bounded by it (QUEUE)
            new LinkedBlockingQueue<>(),
            Thread.ofPlatform().daemon().name("nps-filter-work-", 0).factory());
    pool.allowCoreThreadTimeOut(true);
  }

  /** Half the cores, at least one. */
  static FilterWork sized() {
    return new FilterWork(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
  }

  /**
   * Runs {@code work} on the pool and waits for it, charging its CPU time to {@code principal}; its
   * exceptions come out as they are.
   */
  <T> T run(String sender, String principal, Supplier<T> work) {
    checkShare(principal);
    Sender s;
    synchronized (senders) {
      s = senders.computeIfAbsent(sender, k -> new Sender());
      if (s.requests >= PER_SENDER + PER_SENDER_WAITING) {
        throw busy(
            "this sender has "
                + PER_SENDER
                + " filters in work and "
                + PER_SENDER_WAITING
                + " waiting already");
      }
      s.requests++;
    }
    try {
      if (!s.turns.tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw busy("this sender's filters waited " + WAIT.toSeconds() + " s for their turn");
      }
      try {
        checkShare(principal); // it may have used its share while this request waited
        return runOnPool(principal, work);
      } finally {
        s.turns.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RequestRefusedException(
          new Refused.Unavailable("interrupted", OptionalLong.empty()));
    } finally {
      synchronized (senders) {
        if (--s.requests == 0) {
          senders.remove(sender);
        }
      }
    }
  }

  /** The CPU time {@code principal}'s filters took in the window (for tests and messages). */
  long used(String principal) {
    synchronized (share) {
      return share.used(principal, clock.getAsLong());
    }
  }

  /** Filters waiting for a pool thread (for tests). */
  int waiting() {
    synchronized (share) {
      return waiting.size();
    }
  }

  long budgetNanos() {
    return share.budgetNanos();
  }

  private void checkShare(String principal) {
    long used;
    OptionalLong wait;
    synchronized (share) {
      long now = clock.getAsLong();
      wait = share.over(principal, now);
      used = wait.isPresent() ? share.used(principal, now) : 0;
    }
    if (wait.isPresent()) {
      long seconds = Math.max(1, (wait.getAsLong() + 999_999_999) / 1_000_000_000);
      throw new RequestRefusedException(
          new Refused.RateLimited(
              principal
                  + " used "
                  + used / 1_000_000
                  + " ms of filter CPU in the last "
                  + share.windowNanos() / 1_000_000_000
                  + " s, at or over its share of "
                  + share.budgetNanos() / 1_000_000
                  + " ms: retry in "
                  + seconds
                  + " s",
              OptionalLong.of(seconds)));
    }
  }

  private <T> T runOnPool(String principal, Supplier<T> work) throws InterruptedException {
    FutureTask<T> f = new FutureTask<>(() -> charged(principal, work));
    synchronized (share) {
      if (!waiting.add(principal, f)) {
        throw busy("the filter work queue is full (" + QUEUE + ")");
      }
    }
    try {
      pool.execute(this::runNext);
    } catch (RejectedExecutionException e) { // closed
      synchronized (share) {
        waiting.remove(principal, f);
      }
      throw new RequestRefusedException(
          new Refused.Unavailable("the filter work pool is closed", OptionalLong.empty()));
    }
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      synchronized (share) {
        waiting.remove(principal, f);
      }
      f.cancel(true);
      throw e;
    }
  }

  /** On a pool thread: runs the waiting filter of the principal that used the least CPU. */
  private void runNext() {
    FutureTask<?> next;
    synchronized (share) {
      long now = clock.getAsLong();
      next = waiting.poll(p -> share.used(p, now));
    }
    if (next != null) { // null: its request gave up and removed it
      next.run();
    }
  }

  /** Runs {@code work} on this (pool) thread and charges the CPU time it took, even if it threw. */
  private <T> T charged(String principal, Supplier<T> work) {
    long before = cpuNanos();
    try {
      return work.get();
    } finally {
      long took = cpuNanos() - before;
      synchronized (share) {
        share.charge(principal, clock.getAsLong(), took);
      }
    }
  }

  /** This thread's CPU time; its wall time where the JVM cannot tell (then waits count too). */
  private static long cpuNanos() {
    long t = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    return t >= 0 ? t : System.nanoTime();
  }

  private static RequestRefusedException busy(String why) {
    return new RequestRefusedException(new Refused.RateLimited(why, OptionalLong.of(1)));
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
