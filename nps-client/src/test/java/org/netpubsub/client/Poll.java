package org.netpubsub.client;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition up to a deadline scaled by nps.test.timeoutScale; never a blind sleep. */
public final class Poll {
  static final double SCALE = Double.parseDouble(System.getProperty("nps.test.timeoutScale", "1"));

  private Poll() {}

  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + (long) (timeout.toNanos() * SCALE);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      try {
        Thread.sleep(2); // a poll interval, not a wait for an outcome
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
