package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** {@code nps bench nbi}: a short run per mode over real OpenFlow on loopback. */
class BenchNbiCommandTest {
  private final CliRun cli = new CliRun();

  @Test
  void classifiedSparesTheRedundantAppsWhatBroadcastGivesThem() throws Exception {
    assertThat(
            cli.run(
                "bench",
                "nbi",
                "--switches",
                "2",
                "--apps",
                "simple+3red",
                "--load",
                "latency",
                "--rounds",
                "1",
                "--round-ms",
                "300",
                "--warmup-s",
                "0",
                "--json"))
        .as(cli.err())
        .isZero();
    JsonNode rows = cli.json().get("results");
    assertThat(rows).hasSize(2);
    JsonNode broadcast = rows.get(0);
    JsonNode classified = rows.get(1);
    assertThat(broadcast.get("mode").asText()).isEqualTo("broadcast");
    assertThat(classified.get("mode").asText()).isEqualTo("classified");
    for (JsonNode r : rows) {
      assertThat(r.get("responses_per_s").asDouble()).isPositive();
      assertThat(r.get("rtt_mean_us").asDouble()).isPositive();
      assertThat(r.get("app_count").asInt()).isEqualTo(4);
    }
    // broadcast queues every packet-in to all four apps, classified to the forwarding app only
    // (the counters are read while each of the 2 switches may have one packet-in half queued)
    long in = broadcast.get("packet_ins").asLong();
    assertThat(broadcast.get("deliveries").asLong()).isBetween(4 * (in - 2), 4 * in);
    in = classified.get("packet_ins").asLong();
    assertThat(classified.get("deliveries").asLong()).isBetween(in - 2, in);
  }

  @Test
  void badAppsAndModesAreRefusedWithAReason() {
    assertThat(cli.run("bench", "nbi", "--apps", "simple+3blue", "--warmup-s", "0")).isEqualTo(2);
    assertThat(cli.err()).contains("unknown app '3blue'");
    assertThat(cli.run("bench", "nbi", "--mode", "multicast")).isEqualTo(2);
    assertThat(cli.err()).contains("--mode takes broadcast, classified or both");
  }
}
