package org.netpubsub.edge.coordinator;

import java.time.Duration;
import java.util.function.LongSupplier;

/** The builder's test settings, for tests in other packages (a real coordinator, a fake clock). */
public final class CoordinatorTestAccess {
  private CoordinatorTestAccess() {}

  /** {@link EdgeCoordinator.Builder#wallClock}: the rotation's grace measured on {@code millis}. */
  public static EdgeCoordinator.Builder wallClock(EdgeCoordinator.Builder b, LongSupplier millis) {
    return b.wallClock(millis);
  }

  /** {@link EdgeCoordinator.Builder#revocationSweep}. */
  public static EdgeCoordinator.Builder sweep(EdgeCoordinator.Builder b, Duration every) {
    return b.revocationSweep(every);
  }
}
