package org.netpubsub.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.controller.ControlPlaneSweep;
import org.netpubsub.bench.controller.MachineInfo;
import org.netpubsub.controller.controlplane.ControlPlaneSettings.Balancing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps bench control-plane}: PLEROMA's partitioned control plane on simulated switches (paper
 * §V-C, Figure 8g–l), one run per combination of the list options.
 */
@Command(
    name = "control-plane",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Throughput, processing latency and flow operations of the partitioned control plane"
          + " (PLEROMA Fig. 8g-l) on simulated switches: subscribers on a fat tree subscribe and"
          + " unsubscribe while publishers advertise everything. One run per combination of"
          + " --models, --partitions, --slices, --balancing and --configurators.",
      "--rate 0 submits every request at once (throughput); a positive rate submits them as a"
          + " Poisson process (latency)."
    })
final class BenchControlPlaneCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--configurators",
      split = ",",
      defaultValue = "1,2,4,8",
      paramLabel = "N",
      description = "Numbers of configurators (default: ${DEFAULT-VALUE}).")
  List<Integer> configurators;

  @Option(
      names = "--partitions",
      split = ",",
      defaultValue = "64",
      paramLabel = "K",
      description = "Numbers of partitions, powers of two (default: ${DEFAULT-VALUE}).")
  List<Integer> partitions;

  @Option(
      names = "--balancing",
      split = ",",
      defaultValue = "spa,spa-lb",
      paramLabel = "B",
      description = "spa and/or spa-lb (default: ${DEFAULT-VALUE}).")
  List<String> balancing;

  @Option(
      names = "--models",
      split = ",",
      defaultValue = "uniform,zipf",
      paramLabel = "M",
      description = "Filter models: uniform and/or zipf (default: ${DEFAULT-VALUE}).")
  List<String> models;

  @Option(
      names = "--slices",
      split = ",",
      defaultValue = "1",
      paramLabel = "S",
      description = "Slice sizes for reordering by covering; 1 = none (default: ${DEFAULT-VALUE}).")
  List<Integer> slices;

  @Option(
      names = "--requests",
      defaultValue = "100000",
      paramLabel = "N",
      description = "Subscriptions and unsubscriptions per run (default: ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--standing",
      defaultValue = "2000",
      paramLabel = "N",
      description =
          "Subscriptions standing once the stream alternates (default: ${DEFAULT-VALUE}).")
  int standing;

  @Option(
      names = "--rate",
      defaultValue = "0",
      paramLabel = "R",
      description =
          "Poisson arrival rate in requests/s; 0 = all at once (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      names = "--ack-latency",
      defaultValue = "0",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Switch acknowledgement delay per batch, e.g. 50us (default: ${DEFAULT-VALUE}).")
  Duration ackLatency;

  @Option(
      names = "--ack-latency-us",
      paramLabel = "US",
      description =
          "Deprecated alias of --ack-latency, in microseconds (removed in the release after 0.1).")
  Long ackLatencyUs;

  long ackLatencyMicros;

  @Option(
      names = "--update-rate",
      defaultValue = "0",
      paramLabel = "U",
      description =
          "Flow updates per second per switch, serialised; 0 = unlimited"
              + " (default: ${DEFAULT-VALUE}).")
  double updateRate;

  @Option(
      names = "--fat-tree",
      defaultValue = "8",
      paramLabel = "K",
      description = "The fat tree's k (default: ${DEFAULT-VALUE}: 80 switches, 128 hosts).")
  int fatTree;

  @Option(
      names = "--subscribers",
      defaultValue = "64",
      paramLabel = "N",
      description = "Subscriber hosts (default: ${DEFAULT-VALUE}).")
  int subscribers;

  @Option(
      names = "--publishers",
      defaultValue = "4",
      paramLabel = "N",
      description = "Publisher hosts advertising everything (default: ${DEFAULT-VALUE}).")
  int publishers;

  @Option(
      names = "--dz-length",
      defaultValue = "16",
      paramLabel = "L",
      description = "Bits of the spatial index (default: ${DEFAULT-VALUE}).")
  int dzLength;

  @Option(
      names = "--max-cells",
      defaultValue = "8",
      paramLabel = "C",
      description = "Cells per subscription at most (default: ${DEFAULT-VALUE}).")
  int maxCells;

  @Option(
      names = "--warmup",
      defaultValue = "20000",
      paramLabel = "N",
      description =
          "Requests run once, unmeasured, before the first run, so every run meets compiled code"
              + " (default: ${DEFAULT-VALUE}; 0 = none).")
  int warmup;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "S",
      description = "Workload and arrival seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws InterruptedException {
    List<Balancing> modes = balancing.stream().map(BenchControlPlaneCommand::balancing).toList();
    ackLatencyMicros = ackLatencyUs != null ? ackLatencyUs : ackLatency.toNanos() / 1000;
    check();
    PrintWriter err = spec.commandLine().getErr();
    List<Map<String, Object>> rows =
        ControlPlaneSweep.run(
            new ControlPlaneSweep.Settings(
                models,
                partitions,
                slices,
                modes,
                configurators,
                requests,
                standing,
                rate,
                ackLatencyMicros,
                updateRate,
                fatTree,
                subscribers,
                publishers,
                dzLength,
                maxCells,
                warmup,
                seed),
            err,
            label -> new ProgressMeter(err, json.enabled(), label, 2000)::update);
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("machine", MachineInfo.describe());
      m.put("requests", requests);
      m.put("standing", standing);
      m.put("rate", rate);
      m.put("ack_latency_us", ackLatencyMicros);
      m.put("update_rate", updateRate);
      m.put("fat_tree", fatTree);
      m.put("subscribers", subscribers);
      m.put("publishers", publishers);
      m.put("dz_length", dzLength);
      m.put("max_cells", maxCells);
      m.put("seed", seed);
      m.put("warmup", warmup);
      m.put("results", rows);
      JsonOutput.printLine(out, m);
    } else {
      ControlPlaneSweep.print(rows, out);
    }
    return 0;
  }

  private static Balancing balancing(String s) {
    return switch (s) {
      case "spa" -> Balancing.SPA;
      case "spa-lb" -> Balancing.SPA_LB;
      default ->
          throw new IllegalArgumentException("--balancing takes spa and spa-lb, not '" + s + "'");
    };
  }

  private void check() {
    for (String m : models) {
      if (!m.equals("uniform") && !m.equals("zipf")) {
        throw new IllegalArgumentException("--models takes uniform and zipf, not '" + m + "'");
      }
    }
    if (requests < 1
        || standing < 1
        || warmup < 0
        || rate < 0
        || ackLatencyMicros < 0
        || updateRate < 0) {
      throw new IllegalArgumentException(
          "--requests and --standing must be positive; --warmup, --rate, --ack-latency and"
              + " --update-rate non-negative");
    }
  }
}
