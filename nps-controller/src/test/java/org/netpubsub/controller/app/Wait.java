package org.netpubsub.controller.app;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Polls a condition up to a deadline (never a blind sleep); {@code tick} runs before each check.
 */
final class Wait {
  private Wait() {}

  static void until(String what, Duration timeout, Runnable tick, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      tick.run();
      if (condition.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      try {
        Thread.sleep(5); // a poll interval, not a wait for an outcome
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
