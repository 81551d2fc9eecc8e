package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** {@code nps bench flowmods} against the simulated switch (OVS is measured by hand). */
class BenchFlowmodsCommandTest {
  private final CliRun cli = new CliRun();

  @Test
  void jsonHasARatePerBatchSize() throws Exception {
    assertThat(
            cli.run(
                "bench",
                "flowmods",
                "--target",
                "sim",
                "--batches",
                "1,10",
                "--count",
                "40",
                "--json"))
        .as(cli.err())
        .isZero();
    JsonNode j = cli.json();
    assertThat(j.get("machine").get("nproc").asInt()).isPositive();
    assertThat(j.get("results")).hasSize(2);
    assertThat(j.get("results").get(0).get("target").asText()).isEqualTo("sim");
    assertThat(j.get("results").get(1).get("batch").asInt()).isEqualTo(10);
    assertThat(j.get("results").get(1).get("adds_per_second").asLong()).isPositive();
    assertThat(j.get("results").get(1).get("deletes_per_second").asLong()).isPositive();
  }

  @Test
  void textTableAndBadTarget() {
    assertThat(cli.run("bench", "flowmods", "--target", "sim", "--batches", "5", "--count", "10"))
        .isZero();
    assertThat(cli.out()).contains("adds/s").contains("sim").contains("     5");
    assertThat(cli.run("bench", "flowmods", "--target", "nox")).isEqualTo(2);
    assertThat(cli.err()).contains("--target must be sim, ovs or both");
  }
}
