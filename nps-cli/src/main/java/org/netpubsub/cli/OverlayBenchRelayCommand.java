package org.netpubsub.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.overlay.RelayExperiment;
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
          + " their medians' ratio authenticated / plain (after two unmeasured warm-up pairs). The"
          + " relay CPU ratio is the steadier figure: the throughput also follows the share of a"
          + " core the relay thread gets beside the sender and the sink (relay_core_share)."
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

  @Option(
      names = "--own-key",
      description =
          "Publisher and subscriber edges hold their own keys only (the broker checks the"
              + " publisher's derived key and re-seals for the subscriber); default: they hold the"
              + " deployment's keys, as a default deployment does (docs/security.md, \"Per-edge"
              + " keys\").")
  boolean ownKey;

  @Override
  public Integer call() throws Exception {
    if (rounds < 1 || seconds < 1 || payload < 0 || payload > 60_000) {
      throw new IllegalArgumentException("--rounds and --seconds must be >= 1, --payload 0..60000");
    }
    PrintWriter out = spec.commandLine().getOut();
    RelayExperiment.Summary s =
        RelayExperiment.alternate(
            payload,
            ownKey,
            rounds,
            Duration.ofSeconds(seconds),
            x -> {
              Map<String, Object> o = new LinkedHashMap<>();
              o.put("kind", "relay-round");
              o.put("authenticated", x.authenticated());
              o.put("relayed", x.relayed());
              o.put("per_second", Math.round(x.perSecond()));
              o.put("cpu_ns_per_datagram", Math.round(x.cpuNsPerDatagram()));
              // relayed/s x CPU per datagram: how much of a core the relay thread got this round
              o.put("relay_core_share", round(x.perSecond() * x.cpuNsPerDatagram() / 1e9));
              print(out, o);
            });
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "relay-summary");
    o.put("payload", payload);
    o.put("keys", ownKey ? "own" : "deployment");
    o.put("plain_per_second", Math.round(s.plainPerSecond()));
    o.put("authenticated_per_second", Math.round(s.authenticatedPerSecond()));
    o.put("throughput_ratio", round(s.authenticatedPerSecond() / s.plainPerSecond()));
    o.put("plain_cpu_ns", Math.round(s.plainCpuNs()));
    o.put("authenticated_cpu_ns", Math.round(s.authenticatedCpuNs()));
    o.put("cpu_ratio", round(s.authenticatedCpuNs() / s.plainCpuNs()));
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

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
