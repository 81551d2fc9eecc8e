package org.netpubsub.controller.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Polls a condition up to a deadline (never a blind sleep); {@code tick} runs before each check.
 */
public final class Wait {
  private Wait() {}

  /** Waits until {@code condition} holds; AssertionError naming {@code what} after the timeout. */
  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    until(what, timeout, () -> {}, condition);
  }

  public static void until(
      String what, Duration timeout, Runnable tick, BooleanSupplier condition) {
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
