package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** {@code nps bench control-plane} on a small fat tree: one row per run, warm-up reported. */
class BenchControlPlaneCommandTest {
  private final CliRun cli = new CliRun();

  @Test
  void jsonHasARowPerConfiguratorCountAndTheSameFlowModsInEach() throws Exception {
    assertThat(
            cli.run(
                "bench",
                "control-plane",
                "--fat-tree",
                "4",
                "--subscribers",
                "8",
                "--publishers",
                "2",
                "--models",
                "zipf",
                "--balancing",
                "spa",
                "--partitions",
                "8",
                "--configurators",
                "1,2",
                "--requests",
                "400",
                "--standing",
                "100",
                "--warmup",
                "200",
                "--json"))
        .as(cli.err())
        .isZero();
    assertThat(cli.err()).contains("warming up on 200 requests");
    JsonNode j = cli.json();
    assertThat(j.get("warmup").asInt()).isEqualTo(200);
    JsonNode rows = j.get("results");
    assertThat(rows).hasSize(2);
    assertThat(rows.get(1).get("configurators").asInt()).isEqualTo(2);
    assertThat(rows.get(0).get("throughput").asDouble()).isPositive();
    // the same requests in the same per-partition order: the same flow operations
    assertThat(rows.get(0).get("flow_mods").asLong())
        .isPositive()
        .isEqualTo(rows.get(1).get("flow_mods").asLong());
  }

  @Test
  void negativeWarmupIsRefusedWithAReason() {
    assertThat(cli.run("bench", "control-plane", "--warmup", "-1")).isEqualTo(2);
    assertThat(cli.err()).contains("--warmup");
  }
}
