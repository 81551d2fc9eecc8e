package org.netpubsub.http;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Set;

/**
 * The metrics of one process: a Prometheus registry with the JVM's own meters, and the latency
 * histograms of the HTTP requests. Every timer built with {@link #latency} publishes Prometheus
 * buckets and client-side percentiles, both computed by Micrometer's HdrHistogram-backed histogram.
 */
public final class HttpMetrics {
  private static final Set<String> UNLINTED = Set.of("process.cpu.time", "system.cpu.count");

  private HttpMetrics() {}

  /** A registry with the JVM meters bound (memory, threads, CPU, uptime). */
  public static PrometheusMeterRegistry newRegistry() {
    PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // two JVM meters whose names Prometheus's linter refuses (an abbreviated unit, a _count
    // suffix on a gauge); process_cpu_usage and system_cpu_usage say the same
    r.config().meterFilter(MeterFilter.deny(id -> UNLINTED.contains(id.getName())));
    new JvmMemoryMetrics().bindTo(r);
    new JvmThreadMetrics().bindTo(r);
    new ProcessorMetrics().bindTo(r);
    new UptimeMetrics().bindTo(r);
    return r;
  }

  /** A latency timer with histogram buckets from 100 µs to 60 s and p50/p90/p99. */
  public static Timer.Builder latency(String name, String description) {
    return Timer.builder(name)
        .description(description)
        .publishPercentileHistogram()
        .publishPercentiles(0.5, 0.9, 0.99)
        .minimumExpectedValue(Duration.ofNanos(100_000))
        .maximumExpectedValue(Duration.ofSeconds(60));
  }
}
