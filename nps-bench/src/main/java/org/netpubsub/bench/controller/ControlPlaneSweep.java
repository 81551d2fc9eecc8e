package org.netpubsub.bench.controller;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.netpubsub.controller.controlplane.ControlPlaneSettings.Balancing;

/**
 * PLEROMA's partitioned control plane on simulated switches (paper §V-C, Figure 8g–l), one {@link
 * ControlPlaneBenchmark} run per combination of the list settings, one warm-up before the first
 * ({@code nps bench control-plane}).
 */
public final class ControlPlaneSweep {
  /** The sweep's settings, as checked by the command. */
  public record Settings(
      List<String> models,
      List<Integer> partitions,
      List<Integer> slices,
      List<Balancing> modes,
      List<Integer> configurators,
      int requests,
      int standing,
      double rate,
      long ackLatencyMicros,
      double updateRate,
      int fatTree,
      int subscribers,
      int publishers,
      int dzLength,
      int maxCells,
      int warmup,
      long seed) {}

  private ControlPlaneSweep() {}

  /**
   * The rows, one per run in order; progress lines on {@code err}, and each run's completed
   * requests to the meter {@code meter} gives for its label.
   */
  public static List<Map<String, Object>> run(
      Settings s, PrintWriter err, Function<String, LongConsumer> meter)
      throws InterruptedException {
    List<Map<String, Object>> rows = new ArrayList<>();
    int steps =
        s.models().size()
            * s.partitions().size()
            * s.slices().size()
            * s.modes().size()
            * s.configurators().size();
    for (String model : s.models()) {
      err.printf("control-plane: preparing the %s workload...%n", model);
      err.flush();
      ControlPlaneBenchmark.Workload w =
          ControlPlaneBenchmark.workload(
              model,
              s.fatTree(),
              s.subscribers(),
              s.publishers(),
              s.requests(),
              s.standing(),
              s.dzLength(),
              s.maxCells(),
              s.seed());
      if (s.warmup() > 0 && rows.isEmpty()) {
        err.printf("control-plane: warming up on %,d requests...%n", s.warmup());
        err.flush();
        ControlPlaneBenchmark.warmUp(
            w,
            new ControlPlaneBenchmark.Run(
                s.configurators().get(0),
                s.partitions().get(0),
                s.modes().get(0),
                s.slices().get(0),
                0,
                0, // instant switches: the same code paths, without waiting for a slow switch
                0),
            s.warmup(),
            s.seed());
      }
      for (int k : s.partitions()) {
        for (int slice : s.slices()) {
          for (Balancing mode : s.modes()) {
            for (int n : s.configurators()) {
              var run =
                  new ControlPlaneBenchmark.Run(
                      n, k, mode, slice, s.rate(), s.ackLatencyMicros(), s.updateRate());
              String label =
                  String.format(
                      "%d/%d %s k=%d slice=%d %s n=%d",
                      rows.size() + 1, steps, model, k, slice, name(mode), n);
              var r = ControlPlaneBenchmark.run(w, run, s.seed(), meter.apply(label));
              rows.add(row(r));
              err.printf(
                  "control-plane: %s: %,.0f requests/s, mean latency %.2f ms, %,d flow-mods,"
                      + " %d migrations, %.1f CPU µs/request%n",
                  label,
                  r.throughput(),
                  r.meanLatencyMs(),
                  r.flowMods(),
                  r.migrations(),
                  r.cpuMicrosPerRequest());
              err.flush();
            }
          }
        }
      }
    }
    return rows;
  }

  /** The rows as the text table. */
  public static void print(List<Map<String, Object>> rows, PrintWriter out) {
    out.printf(
        "%-8s %5s %5s %-6s %4s %12s %9s %9s %11s %10s%n",
        "model",
        "k",
        "slice",
        "mode",
        "n",
        "requests/s",
        "mean ms",
        "p99 ms",
        "flow-mods",
        "migrations");
    for (Map<String, Object> r : rows) {
      out.printf(
          "%-8s %5d %5d %-6s %4d %,12.0f %9.2f %9.2f %,11d %10d%n",
          r.get("model"),
          r.get("partitions"),
          r.get("slice"),
          r.get("balancing"),
          r.get("configurators"),
          r.get("throughput"),
          r.get("mean_latency_ms"),
          r.get("p99_latency_ms"),
          r.get("flow_mods"),
          r.get("migrations"));
    }
    out.flush();
  }

  private static Map<String, Object> row(ControlPlaneBenchmark.Result r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("model", r.model());
    m.put("partitions", r.run().partitions());
    m.put("slice", r.run().sliceSize());
    m.put("balancing", name(r.run().balancing()));
    m.put("configurators", r.run().configurators());
    m.put("requests", r.requests());
    m.put("seconds", r.seconds());
    m.put("throughput", r.throughput());
    m.put("mean_latency_ms", r.meanLatencyMs());
    m.put("p50_latency_ms", r.p50LatencyMs());
    m.put("p99_latency_ms", r.p99LatencyMs());
    m.put("max_latency_ms", r.maxLatencyMs());
    m.put("flow_mods", r.flowMods());
    m.put("migrations", r.migrations());
    m.put("resyncs", r.resyncs());
    m.put("flows", r.flows());
    m.put("switch_errors", r.switchErrors());
    m.put("cpu_us_per_request", r.cpuMicrosPerRequest());
    return m;
  }

  /** spa or spa-lb, as the flag names it. */
  public static String name(Balancing b) {
    return b == Balancing.SPA ? "spa" : "spa-lb";
  }
}
