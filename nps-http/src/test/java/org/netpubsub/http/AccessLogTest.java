package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AccessLogTest {
  @Test
  void everyLineFromManyThreadsIsWrittenOnce() throws Exception {
    List<String> written = new CopyOnWriteArrayList<>();
    try (AccessLog log =
        new AccessLog("t", new SimpleMeterRegistry(), 100_000, () -> true, written::add)) {
      Thread[] threads = new Thread[8];
      for (int t = 0; t < threads.length; t++) {
        int id = t;
        threads[t] =
            Thread.ofPlatform()
                .start(() -> IntStream.range(0, 1000).forEach(i -> log.log(id + ":" + i)));
      }
      for (Thread t : threads) {
        t.join();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (written.size() < 8000 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
    }
    assertThat(written).hasSize(8000).doesNotHaveDuplicates();
    // one thread's lines keep their order
    assertThat(written.stream().filter(l -> l.startsWith("3:")).toList())
        .containsExactlyElementsOf(IntStream.range(0, 1000).mapToObj(i -> "3:" + i).toList());
  }

  @Test
  void linesBeyondTheCapacityAreDroppedAndCounted() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch writing = new CountDownLatch(1);
    List<String> written = new CopyOnWriteArrayList<>();
    try (AccessLog log =
        new AccessLog(
            "t",
            registry,
            3,
            () -> true,
            line -> {
              writing.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              written.add(line);
            })) {
      log.log("first"); // taken by the writer, which then blocks
      assertThat(writing.await(30, TimeUnit.SECONDS)).isTrue();
      for (int i = 0; i < 5; i++) {
        log.log("line " + i); // 3 fit in the queue, 2 are dropped
      }
      assertThat(registry.counter("nps.http.access.log.dropped").count()).isEqualTo(2);
      release.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (written.size() < 4 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
    }
    assertThat(written).containsExactly("first", "line 0", "line 1", "line 2");
  }
}
