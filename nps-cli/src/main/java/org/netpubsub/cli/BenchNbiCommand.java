package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.controller.Cbench;
import org.netpubsub.bench.controller.CbenchResult;
import org.netpubsub.bench.controller.MachineInfo;
import org.netpubsub.bench.controller.NbiBenchmark;
import org.netpubsub.controller.nbi.DistributionMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps bench nbi}: the northbound bus under cbench-like load (EMD Figure 7 and 11), one run
 * per combination of the list options.
 */
@Command(
    name = "nbi",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Latency and throughput of the northbound bus (EMD Fig. 7 and 11): emulated switches send"
          + " packet-ins over real OpenFlow to a controller on loopback running the forwarding"
          + " app (simple) and redundant apps (ten increments per event). broadcast gives every"
          + " app every packet-in, as Ryu and ONOS do; classified only the apps that subscribed.",
      "Controller and load generator share this machine's cores."
    })
final class BenchNbiCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--switches",
      split = ",",
      defaultValue = "1,4,16,64",
      paramLabel = "N",
      description = "Numbers of emulated switches (default: ${DEFAULT-VALUE}).")
  List<Integer> switches;

  @Option(
      names = "--apps",
      split = ",",
      defaultValue = "simple,simple+red,simple+3red",
      paramLabel = "A",
      description =
          "App combinations: simple, simple+red, simple+3red, … (default: ${DEFAULT-VALUE}).")
  List<String> apps;

  @Option(
      names = "--mode",
      defaultValue = "both",
      paramLabel = "M",
      description = "broadcast, classified or both (default: ${DEFAULT-VALUE}).")
  String mode;

  @Option(
      names = "--load",
      defaultValue = "latency,throughput",
      split = ",",
      paramLabel = "L",
      description = "cbench modes: latency and/or throughput (default: ${DEFAULT-VALUE}).")
  List<String> loads;

  @Option(
      names = "--subscribed",
      split = ",",
      defaultValue = "0",
      paramLabel = "K",
      description =
          "Redundant apps that subscribe to the traffic too, for EMD Fig. 11's subscription"
              + " rate (default: ${DEFAULT-VALUE}).")
  List<Integer> subscribed;

  @Option(
      names = "--red-work",
      split = ",",
      defaultValue = "0",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "CPU time each redundant app spends per event besides its ten increments, e.g. 20us"
              + " (default: ${DEFAULT-VALUE}: the paper's app; Ryu spends tens of µs per event).")
  List<Duration> redWork;

  @Option(
      names = "--red-work-us",
      split = ",",
      paramLabel = "US",
      description =
          "Deprecated alias of --red-work, in microseconds (removed in the release after 0.1).")
  List<Integer> redWorkUs;

  List<Integer> redWorkMicros;

  @Option(
      names = "--topics",
      split = ",",
      defaultValue = "fields",
      paramLabel = "K",
      description =
          "How apps state topics: fields (OpenFlow match fields) and/or bytes (the same test as"
              + " an offset/length/mask window, EMD §4.2) (default: ${DEFAULT-VALUE}).")
  List<String> topicKinds;

  @Option(
      names = "--rounds",
      defaultValue = "5",
      paramLabel = "N",
      description = "Measured rounds per run, after one warm-up round (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--round",
      defaultValue = "1s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Round length (default: ${DEFAULT-VALUE}).")
  Duration round;

  @Option(
      names = "--round-ms",
      paramLabel = "MS",
      description =
          "Deprecated alias of --round, in milliseconds (removed in the release after 0.1).")
  Long roundMs;

  long roundMillis;

  @Option(
      names = "--warmup",
      defaultValue = "4s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Unmeasured load before the first run, so every run meets compiled code"
              + " (default: ${DEFAULT-VALUE}; 0 = none).")
  Duration warmup;

  @Option(
      names = "--warmup-s",
      paramLabel = "S",
      description = "Deprecated alias of --warmup, in seconds (removed in the release after 0.1).")
  Integer warmupS;

  int warmupSeconds;

  @Override
  public Integer call() throws IOException, InterruptedException {
    // the deprecated unit-named aliases win when given
    roundMillis = roundMs != null ? roundMs : round.toMillis();
    Duration warm = warmupS != null ? Duration.ofSeconds(warmupS) : warmup;
    warmupSeconds = (int) warm.toSeconds();
    redWorkMicros =
        redWorkUs != null
            ? redWorkUs
            : redWork.stream()
                .map(d -> (int) Math.min(Integer.MAX_VALUE, d.toNanos() / 1000))
                .toList();
    List<NbiBenchmark.Run> runs = runs();
    PrintWriter err = spec.commandLine().getErr();
    if (warm.isPositive()) {
      err.printf("nbi: warming up for %s...%n", warm);
      err.flush();
      NbiBenchmark.warmUp(warm);
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (NbiBenchmark.Run run : runs) {
      String label =
          String.format(
              "%d/%d %s %s %s sub=%d red-work=%dµs %s %d switches",
              rows.size() + 1,
              runs.size(),
              name(run.topics()),
              name(run.load()),
              run.apps(),
              run.subscribed(),
              run.redundantWork().toNanos() / 1000,
              name(run.mode()),
              run.switches());
      ProgressMeter meter = new ProgressMeter(err, json.enabled(), label, 2000);
      NbiBenchmark.Result r = NbiBenchmark.run(run, meter::update);
      rows.add(row(r));
      err.printf(
          "nbi: %s: %,.0f responses/s%s%n",
          label,
          r.load().responsesPerSecond(),
          r.load()
              .rtt()
              .map(t -> String.format(", mean RTT %.1f µs", micros(t.mean())))
              .orElse(""));
      err.flush();
    }
    print(rows);
    return 0;
  }

  /** One run per combination of the list options, checked before any runs. */
  private List<NbiBenchmark.Run> runs() {
    List<DistributionMode> modes = modes();
    List<Cbench.Mode> loadModes = loads.stream().map(BenchNbiCommand::load).toList();
    List<NbiBenchmark.TopicKind> kinds = topicKinds.stream().map(BenchNbiCommand::kind).toList();
    if (rounds < 1
        || roundMillis < 1
        || warmupSeconds < 0
        || switches.stream().anyMatch(n -> n < 1)
        || redWorkMicros.stream().anyMatch(w -> w < 0)) {
      throw new IllegalArgumentException(
          "--rounds, --round and --switches must be positive, --warmup and --red-work"
              + " not negative");
    }
    List<NbiBenchmark.Run> out = new ArrayList<>();
    for (NbiBenchmark.TopicKind kind : kinds) {
      for (Cbench.Mode load : loadModes) {
        for (int work : redWorkMicros) {
          for (String combo : apps) {
            for (int k : subscribed) {
              for (int n : switches) {
                for (DistributionMode m : modes) {
                  out.add(
                      new NbiBenchmark.Run(
                          combo,
                          k,
                          Duration.ofNanos(work * 1000L),
                          kind,
                          m,
                          load,
                          n,
                          rounds,
                          Duration.ofMillis(roundMillis)));
                }
              }
            }
          }
        }
      }
    }
    return out;
  }

  private void print(List<Map<String, Object>> rows) {
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("machine", MachineInfo.describe());
      m.put("rounds", rounds);
      m.put("round_ms", roundMillis);
      m.put("warmup_s", warmupSeconds);
      m.put("results", rows);
      JsonOutput.printLine(out, m);
      return;
    }
    out.printf(
        "%-10s %-14s %3s %7s %-10s %8s %14s %12s %10s%n",
        "load",
        "apps",
        "sub",
        "red µs",
        "mode",
        "switches",
        "responses/s",
        "mean RTT µs",
        "p99 µs");
    for (Map<String, Object> r : rows) {
      out.printf(
          "%-10s %-14s %3d %7d %-10s %8d %,14.0f %12s %10s%n",
          r.get("load"),
          r.get("apps"),
          r.get("subscribed"),
          r.get("red_work_us"),
          r.get("mode"),
          r.get("switches"),
          r.get("responses_per_s"),
          r.containsKey("rtt_mean_us") ? String.format("%.1f", r.get("rtt_mean_us")) : "-",
          r.containsKey("rtt_p99_us") ? String.format("%.1f", r.get("rtt_p99_us")) : "-");
    }
    out.flush();
  }

  private static Map<String, Object> row(NbiBenchmark.Result r) {
    CbenchResult c = r.load();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("load", name(r.run().load()));
    m.put("apps", r.run().apps());
    m.put("app_count", r.appCount());
    m.put("subscribed", r.run().subscribed());
    m.put("subscription_rate", r.subscriptionRate());
    m.put("red_work_us", r.run().redundantWork().toNanos() / 1000);
    m.put("topics", name(r.run().topics()));
    m.put("mode", name(r.run().mode()));
    m.put("switches", r.run().switches());
    m.put("responses", c.responses());
    m.put("responses_per_s", c.responsesPerSecond());
    m.put("min_round_rate", c.minRoundRate());
    m.put("max_round_rate", c.maxRoundRate());
    c.rtt()
        .ifPresent(
            t -> {
              m.put("rtt_mean_us", micros(t.mean()));
              m.put("rtt_p50_us", micros(t.p50()));
              m.put("rtt_p99_us", micros(t.p99()));
            });
    m.put("packet_ins", r.bus().packetIns());
    m.put("deliveries", r.bus().deliveries());
    m.put("packet_outs", r.bus().packetOuts());
    m.put("flow_mods", r.bus().flowMods());
    return m;
  }

  private static double micros(Duration d) {
    return d.toNanos() / 1e3;
  }

  private List<DistributionMode> modes() {
    return switch (mode) {
      case "broadcast" -> List.of(DistributionMode.BROADCAST);
      case "classified" -> List.of(DistributionMode.CLASSIFIED);
      case "both" -> List.of(DistributionMode.BROADCAST, DistributionMode.CLASSIFIED);
      default ->
          throw new IllegalArgumentException(
              "--mode takes broadcast, classified or both, not '" + mode + "'");
    };
  }

  private static Cbench.Mode load(String s) {
    return switch (s) {
      case "latency" -> Cbench.Mode.LATENCY;
      case "throughput" -> Cbench.Mode.THROUGHPUT;
      default ->
          throw new IllegalArgumentException(
              "--load takes latency and throughput, not '" + s + "'");
    };
  }

  private static NbiBenchmark.TopicKind kind(String s) {
    return switch (s) {
      case "fields" -> NbiBenchmark.TopicKind.FIELDS;
      case "bytes" -> NbiBenchmark.TopicKind.BYTES;
      default ->
          throw new IllegalArgumentException("--topics takes fields and bytes, not '" + s + "'");
    };
  }

  private static String name(NbiBenchmark.TopicKind k) {
    return k == NbiBenchmark.TopicKind.FIELDS ? "fields" : "bytes";
  }

  private static String name(Cbench.Mode m) {
    return m == Cbench.Mode.LATENCY ? "latency" : "throughput";
  }

  private static String name(DistributionMode m) {
    return m == DistributionMode.BROADCAST ? "broadcast" : "classified";
  }
}
