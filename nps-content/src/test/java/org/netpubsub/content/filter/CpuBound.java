package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * "Quickly", measured in CPU time of the thread doing the work, not in wall time: on a loaded
 * machine a thread waits for a core, so a wall-clock limit fails for reasons outside the code
 * (HostileInputTest's 5 s limits did, with the load average at 10-25 on 2 cores). An action that
 * loops or blows up still fails, once it has used the limit, and is abandoned as
 * assertTimeoutPreemptively abandons it.
 */
final class CpuBound {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final long POLL_MILLIS = 10;

  private CpuBound() {}

  /** The action's result; fails if its thread uses more than {@code limit} of CPU time. */
  static <T> T within(Duration limit, Callable<T> action) {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread worker =
        Thread.ofPlatform()
            .daemon()
            .name("cpu-bound")
            .unstarted(
                () -> {
                  try {
                    result.set(action.call());
                  } catch (Throwable t) {
                    failure.set(t);
                  }
                });
    worker.start();
    try {
      while (!join(worker)) {
        long used = THREADS.getThreadCpuTime(worker.threadId()); // -1 once it has ended
        if (used > limit.toNanos()) {
          worker.interrupt();
          fail("used more than %s of CPU time", limit);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
    if (failure.get() instanceof Error e) {
      throw e;
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    return result.get();
  }

  private static boolean join(Thread worker) throws InterruptedException {
    return worker.join(Duration.ofMillis(POLL_MILLIS));
  }
}
