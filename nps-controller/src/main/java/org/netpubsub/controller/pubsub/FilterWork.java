package org.netpubsub.controller.pubsub;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Filter normalisation off the request threads (issue 27): at most {@code threads} filters are
 * worked on at once, so expensive filters take a bounded share of the CPU and other requests
 * ({@code GET /v1/topology}) keep their threads; one sender (a rate-limit key: principal and
 * source) has at most {@link #PER_SENDER} filters in work, and the queue is bounded. Past either
 * bound the request is refused 429 with the reason.
 */
final class FilterWork implements AutoCloseable {
  static final int PER_SENDER = 2;
  static final int QUEUE = 256;

  private final ThreadPoolExecutor pool;
  private final Map<String, Integer> inWork = new HashMap<>();

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
    synchronized (inWork) {
      if (inWork.getOrDefault(sender, 0) >= PER_SENDER) {
        throw busy("filters of this sender are in work already (at most " + PER_SENDER + ")");
      }
      inWork.merge(sender, 1, Integer::sum);
    }
    try {
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
        Thread.currentThread().interrupt();
        throw new RequestRefusedException(
            new Refused.Unavailable("interrupted", OptionalLong.empty()));
      }
    } finally {
      synchronized (inWork) {
        inWork.computeIfPresent(sender, (k, n) -> n > 1 ? n - 1 : null);
      }
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
