package org.netpubsub.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps overlay bench-relay}: the relay throughput with and without datagram keys. */
@Command(
    name = "bench-relay",
    mixinStandardHelpOptions = true,
    description = {
      "What datagram authentication costs a routing broker (docs/security.md): rounds alternating"
          + " with and without a key, each blasting one topic's datagrams through a real routing"
          + " broker for --seconds; the relay rate and the relay thread's CPU per datagram, and"
          + " their medians' ratio authenticated / plain (after one unmeasured warm-up pair)."
    })
final class OverlayBenchRelayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin JsonOutput json;

  @Option(names = "--rounds", defaultValue = "3", description = "Rounds of each kind.")
  int rounds;

  @Option(names = "--payload", defaultValue = "256", description = "Payload bytes.")
  int payload;

  @Option(names = "--seconds", defaultValue = "3", description = "Measured time per round.")
  int seconds;

  @Override
  public Integer call() throws Exception {
    if (rounds < 1 || seconds < 1 || payload < 0 || payload > 60_000) {
      throw new IllegalArgumentException("--rounds and --seconds must be >= 1, --payload 0..60000");
    }
    List<RelayExperiment.Round> plain = new ArrayList<>();
    List<RelayExperiment.Round> auth = new ArrayList<>();
    PrintWriter out = spec.commandLine().getOut();
    try (EmbeddedZooKeeper zk =
        EmbeddedZooKeeper.start(
            new InetSocketAddress("127.0.0.1", 0),
            Files.createTempDirectory("nps-zk-relay"),
            100)) {
      for (boolean a : new boolean[] {false, true}) { // warm-up: the JIT, not measured
        RelayExperiment.run(zk.connectString(), a, payload, Duration.ofSeconds(1));
      }
      for (int r = 0; r < rounds; r++) {
        for (boolean a : new boolean[] {r % 2 == 1, r % 2 == 0}) { // alternate which goes first
          RelayExperiment.Round x =
              RelayExperiment.run(zk.connectString(), a, payload, Duration.ofSeconds(seconds));
          (a ? auth : plain).add(x);
          Map<String, Object> o = new LinkedHashMap<>();
          o.put("kind", "relay-round");
          o.put("authenticated", a);
          o.put("relayed", x.relayed());
          o.put("per_second", Math.round(x.perSecond()));
          o.put("cpu_ns_per_datagram", Math.round(x.cpuNsPerDatagram()));
          print(out, o);
        }
      }
    }
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "relay-summary");
    o.put("payload", payload);
    o.put("plain_per_second", Math.round(median(plain, true)));
    o.put("authenticated_per_second", Math.round(median(auth, true)));
    o.put("throughput_ratio", round(median(auth, true) / median(plain, true)));
    o.put("plain_cpu_ns", Math.round(median(plain, false)));
    o.put("authenticated_cpu_ns", Math.round(median(auth, false)));
    o.put("cpu_ratio", round(median(auth, false) / median(plain, false)));
    print(out, o);
    return 0;
  }

  private void print(PrintWriter out, Map<String, Object> o) {
    if (json.enabled()) {
      JsonOutput.printLine(out, o);
    } else {
      out.println(o);
      out.flush();
    }
  }

  private static double median(List<RelayExperiment.Round> rs, boolean rate) {
    double[] v =
        rs.stream()
            .mapToDouble(r -> rate ? r.perSecond() : r.cpuNsPerDatagram())
            .sorted()
            .toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
