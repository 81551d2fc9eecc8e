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

/** A sender's burst waits its turns (2 at once) instead of being refused; past the bound, 429. */
class FilterWorkTest {

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
          work.run("bob@::1", () -> 0);
        } catch (RequestRefusedException e) {
          refused = e;
        }
      }
      assertThat(refused).isNotNull();
      assertThat(refused.refused()).isInstanceOf(Refused.RateLimited.class);
      assertThat(work.run("carol@::1", () -> 2)).as("another sender is served").isEqualTo(2);
      release.countDown();
      for (CompletableFuture<Integer> f : held) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
      }
    } finally {
      clients.shutdownNow();
    }
  }
}
