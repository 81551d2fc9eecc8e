package org.netpubsub.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.http.HttpMetrics;

/**
 * An overlay broker's ZooKeeper latency ({@code nps_overlay_zookeeper_latency_seconds{operation}}):
 * Curator traces every operation it sends (create, getData, ... in the foreground or background) to
 * its tracer driver, with the latency in whole milliseconds; this driver records them.
 */
final class ZooKeeperLatency extends AdvancedTracerDriver {
  private final MeterRegistry registry;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  private ZooKeeperLatency(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Records the latency of every operation {@code client} sends from now on. */
  static void trace(MeterRegistry registry, CuratorFramework client) {
    client.getZookeeperClient().setTracerDriver(new ZooKeeperLatency(registry));
  }

  @Override
  public void addTrace(OperationTrace trace) {
    timers
        .computeIfAbsent(operation(trace.getName()), this::timer)
        .record(trace.getLatencyMs(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void addEvent(EventTrace trace) {}

  /** {@code CreateBuilderImpl-Foreground} is {@code create-foreground}: few, stable names. */
  static String operation(String traceName) {
    return traceName.replace("BuilderImpl", "").toLowerCase(Locale.ROOT);
  }

  private Timer timer(String operation) {
    return HttpMetrics.latency(
            "nps.overlay.zookeeper.latency",
            "ZooKeeper operations of this broker, from sending to the answer (ms resolution)")
        .tag("operation", operation)
        .register(registry);
  }
}
