package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A sender's burst waits its turns (2 at once) instead of being refused; past the bound, 429. A
 * principal flooding expensive filters is held to its measured CPU share while another is served.
 */
class FilterWorkTest {

  /** Spins until this thread has used {@code ms} of CPU. */
  private static int burn(long ms) {
    java.lang.management.ThreadMXBean t = java.lang.management.ManagementFactory.getThreadMXBean();
    long until = t.getCurrentThreadCpuTime() + ms * 1_000_000;
    int spins = 0;
    while (t.getCurrentThreadCpuTime() < until) {
      spins++;
    }
    return spins;
  }

  @Test
  void aFlooderIsHeldToItsCpuShareWhileAnotherPrincipalIsServed() throws Exception {
    // 2 threads, a 1 s window, a share of 0.05: 100 ms of CPU per principal per second
    int flooders = 4;
    ExecutorService clients = Executors.newFixedThreadPool(flooders);
    AtomicInteger served = new AtomicInteger();
    List<RequestRefusedException> refusals = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean flooding =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    try (FilterWork work =
        new FilterWork(2, java.time.Duration.ofSeconds(1), 0.05, System::nanoTime)) {
      for (int i = 0; i < flooders; i++) {
        clients.execute(
            () -> {
              while (flooding.get()) {
                try {
                  work.run("mallory@::9", "mallory", () -> burn(30));
                  served.incrementAndGet();
                } catch (RequestRefusedException e) {
                  refusals.add(e);
                }
              }
            });
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (refusals.isEmpty() && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(refusals).as("the flooder is refused").isNotEmpty();
      long slowest = 0;
      for (int i = 0; i < 10; i++) {
        long t0 = System.nanoTime();
        assertThat(work.run("carol@::1", "carol", () -> 7)).isEqualTo(7);
        slowest = Math.max(slowest, System.nanoTime() - t0);
      }
      // behind at most the flooder's 2 filters in work (30 ms of CPU each), on a loaded machine
      assertThat(slowest).as("carol's slowest, ns").isLessThan(TimeUnit.SECONDS.toNanos(2));
      // its window's use: the budget, plus at most the 2 filters already in work when it hit it
      assertThat(work.used("mallory")).isLessThanOrEqualTo(work.budgetNanos() + 2 * 40_000_000L);
      RequestRefusedException e = refusals.getFirst();
      assertThat(e.refused()).isInstanceOf(Refused.RateLimited.class);
      assertThat(e.retryAfterSeconds()).hasValue(1);
      assertThat(((Refused.RateLimited) e.refused()).reason())
          .contains("mallory")
          .contains("share of 100 ms");
    } finally {
      flooding.set(false);
      clients.shutdownNow();
    }
  }

  @Test
  void anotherPrincipalIsServedBeforeWhatAFlooderQueuedAndTheFlooderStillProgresses()
      throws Exception {
    // one thread, a share nobody reaches here: only the order of waiting work is under test
    int senders = 24;
    int flood = senders * FilterWork.PER_SENDER;
    ExecutorService clients = Executors.newFixedThreadPool(flood);
    AtomicInteger started = new AtomicInteger();
    try (FilterWork work =
        new FilterWork(1, java.time.Duration.ofSeconds(10), 1.0, System::nanoTime)) {
      List<CompletableFuture<Integer>> flooding = new ArrayList<>();
      for (int i = 0; i < flood; i++) {
        String sender = "mallory@::" + (i % senders);
        flooding.add(
            CompletableFuture.supplyAsync(
                () ->
                    work.run(
                        sender,
                        "mallory",
                        () -> {
                          started.incrementAndGet();
                          return burn(10);
                        }),
                clients));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      // the flooder holds the queue and has a use in the window (one filter done)
      while ((work.waiting() < flood * 3 / 4 || work.used("mallory") == 0)
          && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      int queued = work.waiting();
      assertThat(queued).as("mallory's filters waiting").isGreaterThanOrEqualTo(flood * 3 / 4);
      int before = started.get();
      long t0 = System.nanoTime();
      assertThat(work.run("carol@::1", "carol", () -> 7)).isEqualTo(7);
      long took = System.nanoTime() - t0;
      // behind the one filter in work (and one taken while carol's was being added), not the queue
      assertThat(started.get() - before).as("mallory filters started first").isLessThanOrEqualTo(2);
      assertThat(work.waiting()).as("mallory's still waiting").isGreaterThan(queued / 2);
      assertThat(took).as("carol's wait, ns").isLessThan(TimeUnit.SECONDS.toNanos(2));
      // alone again, the flooder is served to the end
      for (CompletableFuture<Integer> f : flooding) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isPositive();
      }
      assertThat(started.get()).isEqualTo(flood);
      assertThat(work.waiting()).isZero();
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  void aBurstOfOneSenderIsServedTwoAtATime() throws Exception {
    int burst = 8;
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService clients = Executors.newFixedThreadPool(burst);
    try (FilterWork work = new FilterWork(4)) {
      List<CompletableFuture<Integer>> done = new ArrayList<>();
      for (int i = 0; i < burst; i++) {
        int n = i;
        done.add(
            CompletableFuture.supplyAsync(
                () ->
                    work.run(
                        "ann@::1",
                        "ann",
                        () -> {
                          most.accumulateAndGet(running.incrementAndGet(), Math::max);
                          try {
                            release.await(30, TimeUnit.SECONDS);
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          }
                          running.decrementAndGet();
                          return n;
                        }),
                clients));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (running.get() < FilterWork.PER_SENDER && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      release.countDown();
      List<Integer> results = new ArrayList<>();
      for (CompletableFuture<Integer> f : done) {
        results.add(f.get(30, TimeUnit.SECONDS));
      }
      assertThat(results).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
      assertThat(most.get()).isEqualTo(FilterWork.PER_SENDER);
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  void aSenderOverItsTurnsAndWaitingPlacesIsRefused() throws Exception {
    int bound = FilterWork.PER_SENDER + FilterWork.PER_SENDER_WAITING;
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger entered = new AtomicInteger();
    ExecutorService clients = Executors.newFixedThreadPool(bound);
    try (FilterWork work = new FilterWork(4)) {
      List<CompletableFuture<Integer>> held = new ArrayList<>();
      for (int i = 0; i < bound; i++) {
        held.add(
            CompletableFuture.supplyAsync(
                () -> {
                  entered.incrementAndGet();
                  return work.run(
                      "bob@::1",
                      "bob",
                      () -> {
                        try {
                          release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                          Thread.currentThread().interrupt();
                        }
                        return 1;
                      });
                },
                clients));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (entered.get() < bound && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      // every held request is counted before it can wait: poll until one more is refused
      RequestRefusedException refused = null;
      while (refused == null && System.nanoTime() < deadline) {
        try {
          work.run("bob@::1", "bob", () -> 0);
        } catch (RequestRefusedException e) {
          refused = e;
        }
      }
      assertThat(refused).isNotNull();
      assertThat(refused.refused()).isInstanceOf(Refused.RateLimited.class);
      assertThat(work.run("carol@::1", "carol", () -> 2))
          .as("another sender is served")
          .isEqualTo(2);
      release.countDown();
      for (CompletableFuture<Integer> f : held) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
      }
    } finally {
      clients.shutdownNow();
    }
  }
}
