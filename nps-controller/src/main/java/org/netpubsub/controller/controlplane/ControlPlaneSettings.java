package org.netpubsub.controller.controlplane;

import java.time.Duration;
import org.netpubsub.network.controlplane.Partitions;

/**
 * How a partitioned control plane runs: n configurators over k partitions, with or without
 * overload-driven migration (SPA or SPA-LB), the slice size of §IV-C reordering (1: no reordering),
 * the monitor's threshold, rising-sample count and period, and how long a configurator waits for a
 * switch's acknowledgement before it reports the request failed.
 */
public record ControlPlaneSettings(
    int configurators,
    Partitions partitions,
    Balancing balancing,
    int sliceSize,
    double overloadThreshold,
    int risingSamples,
    Duration monitorPeriod,
    Duration ackTimeout) {

  /** SPA: fixed assignment. SPA_LB: the monitor migrates partitions away from overload. */
  public enum Balancing {
    SPA,
    SPA_LB
  }

  public ControlPlaneSettings {
    if (configurators < 1 || configurators > 256) {
      throw new IllegalArgumentException("configurators must be 1..256: " + configurators);
    }
    if (sliceSize < 1) {
      throw new IllegalArgumentException("the slice size must be at least 1: " + sliceSize);
    }
    if (monitorPeriod.isNegative() || monitorPeriod.isZero() || ackTimeout.isNegative()) {
      throw new IllegalArgumentException("the monitor period and ack timeout must be positive");
    }
  }

  /** SPA with no reordering; threshold 1.5 over 2 rising samples, sampled every 10 ms. */
  public static ControlPlaneSettings of(int configurators, Partitions partitions) {
    return new ControlPlaneSettings(
        configurators,
        partitions,
        Balancing.SPA,
        1,
        1.5,
        2,
        Duration.ofMillis(10),
        Duration.ofSeconds(10));
  }

  public ControlPlaneSettings withBalancing(Balancing b) {
    return new ControlPlaneSettings(
        configurators,
        partitions,
        b,
        sliceSize,
        overloadThreshold,
        risingSamples,
        monitorPeriod,
        ackTimeout);
  }

  public ControlPlaneSettings withSliceSize(int n) {
    return new ControlPlaneSettings(
        configurators,
        partitions,
        balancing,
        n,
        overloadThreshold,
        risingSamples,
        monitorPeriod,
        ackTimeout);
  }

  public ControlPlaneSettings withAckTimeout(Duration d) {
    return new ControlPlaneSettings(
        configurators,
        partitions,
        balancing,
        sliceSize,
        overloadThreshold,
        risingSamples,
        monitorPeriod,
        d);
  }
}
