package org.netpubsub.controller.pubsub;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Filter normalisation off the request threads (issue 27): at most {@code threads} filters are
 * worked on at once, so expensive filters take a bounded share of the CPU and other requests
 * ({@code GET /v1/topology}) keep their threads. One sender (a rate-limit key: principal and
 * source) has at most {@link #PER_SENDER} filters in work; up to {@link #PER_SENDER_WAITING} more
 * wait their turn (a client's burst is served, not refused), for at most {@link #WAIT}. Past either
 * bound, or a full queue, the request is refused 429 with the reason. A sender's entry lives only
 * while it has requests here.
 */
final class FilterWork implements AutoCloseable {
  static final int PER_SENDER = 2;
  static final int PER_SENDER_WAITING = 64;
  static final Duration WAIT = Duration.ofSeconds(10);
  static final int QUEUE = 256;

  private final ThreadPoolExecutor pool;
  private final Map<String, Sender> senders = new HashMap<>(); // guarded by itself

  /** One sender's requests here, and the turns its filters take. */
  private static final class Sender {
    int requests;
    final Semaphore turns = new Semaphore(PER_SENDER, true);
  }

  FilterWork(int threads) {
    pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(QUEUE),
            Thread.ofPlatform().daemon().name("nps-filter-work-", 0).factory());
    pool.allowCoreThreadTimeOut(true);
  }

  /** Half the cores, at least one. */
  static FilterWork sized() {
    return new FilterWork(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
  }

  /** Runs {@code work} on the pool and waits for it; its exceptions come out as they are. */
  <T> T run(String sender, Supplier<T> work) {
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
        return runOnPool(work);
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

  private <T> T runOnPool(Supplier<T> work) throws InterruptedException {
    Future<T> f;
    try {
      f = pool.submit(work::get);
    } catch (RejectedExecutionException e) {
      throw busy("the filter work queue is full (" + QUEUE + ")");
    }
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      f.cancel(true);
      throw e;
    }
  }

  private static RequestRefusedException busy(String why) {
    return new RequestRefusedException(new Refused.RateLimited(why, OptionalLong.of(1)));
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
