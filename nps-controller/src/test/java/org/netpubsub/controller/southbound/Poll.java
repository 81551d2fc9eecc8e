package org.netpubsub.controller.southbound;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Test waiting without sleeping blindly: poll a condition up to a deadline scaled by
 * nps.test.timeoutScale.
 */
final class Poll {
  static final double SCALE = Double.parseDouble(System.getProperty("nps.test.timeoutScale", "1"));

  private Poll() {}

  /** {@code d} times the timeout scale. */
  static Duration scaled(Duration d) {
    return Duration.ofNanos((long) (d.toNanos() * SCALE));
  }

  static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + scaled(timeout).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + scaled(timeout) + " waiting for " + what);
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(2); // a poll interval, not a wait for an outcome
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  static <T> T value(String what, Duration timeout, Supplier<T> supplier) {
    Object[] box = new Object[1];
    until(
        what,
        timeout,
        () -> {
          box[0] = supplier.get();
          return box[0] != null;
        });
    @SuppressWarnings("unchecked")
    T t = (T) box[0];
    return t;
  }

  /** The future's value; its failure's cause as thrown; an AssertionError if it takes too long. */
  static <T> T get(CompletableFuture<T> f, Duration timeout) {
    try {
      return f.get(scaled(timeout).toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new AssertionError(e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("future not done within " + scaled(timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** The exception the future fails with (AssertionError if it succeeds or takes too long). */
  static Throwable failure(CompletableFuture<?> f, Duration timeout) {
    try {
      f.get(scaled(timeout).toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("future not done within " + scaled(timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    throw new AssertionError("expected the future to fail, it succeeded");
  }
}
