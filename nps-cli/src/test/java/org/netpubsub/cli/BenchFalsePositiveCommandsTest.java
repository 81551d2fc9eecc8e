package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** {@code nps bench fpr} and {@code nps bench dimensions} on small workloads. */
class BenchFalsePositiveCommandsTest {
  private final CliRun cli = new CliRun();

  @Test
  void fprFallsWithTheDzLengthAndReportsProgress() throws Exception {
    assertThat(
            cli.run(
                "bench",
                "fpr",
                "--models",
                "uniform",
                "--subscriptions",
                "50,200",
                "--lengths",
                "2,20",
                "--attributes",
                "2",
                "--events",
                "300",
                "--max-cells",
                "4096",
                "--json"))
        .as(cli.err())
        .isZero();
    JsonNode j = cli.json();
    JsonNode rows = j.get("results");
    assertThat(rows).hasSize(4);
    for (int n = 0; n < 2; n++) {
      JsonNode coarse = rows.get(2 * n);
      JsonNode fine = rows.get(2 * n + 1);
      assertThat(coarse.get("length").asInt()).isEqualTo(2);
      assertThat(coarse.get("fpr").asDouble()).isGreaterThan(fine.get("fpr").asDouble());
      // 20 bits resolve every value of 2 × 1024: what arrives is wanted
      assertThat(fine.get("unnecessary").asLong()).isZero();
      assertThat(fine.get("received").asLong()).isPositive();
    }
    assertThat(cli.err()).contains("fpr: 4/4 uniform n=200 L=20");
  }

  @Test
  void aFlowBudgetBoundsTheEdgeFlowsAndOnlyAddsDeliveries() throws Exception {
    assertThat(
            cli.run(
                "bench",
                "fpr",
                "--models",
                "uniform",
                "--subscriptions",
                "50",
                "--lengths",
                "12",
                "--attributes",
                "2",
                "--events",
                "300",
                "--max-flows",
                "0,4",
                "--flow-sample",
                "100",
                "--json"))
        .as(cli.err())
        .isZero();
    JsonNode rows = cli.json().get("results");
    assertThat(rows).hasSize(2);
    JsonNode free = rows.get(0);
    JsonNode budget = rows.get(1);
    assertThat(budget.get("max_flows").asInt()).isEqualTo(4);
    assertThat(free.get("edge_flows_max").asInt()).isGreaterThan(4);
    assertThat(budget.get("edge_flows_max").asInt()).isLessThanOrEqualTo(4);
    // merged cells cover more: the same wanted deliveries (none is lost) and more unwanted ones
    long wantedFree = free.get("received").asLong() - free.get("unnecessary").asLong();
    long wantedBudget = budget.get("received").asLong() - budget.get("unnecessary").asLong();
    assertThat(wantedBudget).isEqualTo(wantedFree);
    assertThat(budget.get("unnecessary").asLong()).isGreaterThan(free.get("unnecessary").asLong());
    assertThat(cli.run("bench", "fpr", "--max-flows", "-1")).isEqualTo(2);
    assertThat(cli.err()).contains("--max-flows must be");
  }

  @Test
  void dimensionSelectionRanksTheRestrictedAttributesLast() throws Exception {
    assertThat(
            cli.run(
                "bench",
                "dimensions",
                "--attributes",
                "4",
                "--restricted",
                "2",
                "--length",
                "12",
                "--subscriptions",
                "200",
                "--events",
                "400",
                "--json"))
        .as(cli.err())
        .isZero();
    JsonNode w = cli.json().get("workloads").get(0);
    // a0 and a1 barely vary: every event matches about the same subscriptions along them
    assertThat(w.get("ranking").get(2).get("attribute").asText()).isIn("a0", "a1");
    assertThat(w.get("ranking").get(3).get("attribute").asText()).isIn("a0", "a1");
    JsonNode rows = w.get("results");
    assertThat(rows).hasSize(4);
    assertThat(rows.get(3).get("benefit").asDouble()).isZero();
    // the two discriminating dimensions with all 12 bits beat all four with 3 bits each
    assertThat(rows.get(1).get("fpr").asDouble()).isLessThan(rows.get(3).get("fpr").asDouble());
  }

  @Test
  void badOptionsExitTwoWithAReason() {
    assertThat(cli.run("bench", "fpr", "--models", "gauss")).isEqualTo(2);
    assertThat(cli.err()).contains("--models takes uniform and zipf");
    assertThat(cli.run("bench", "fpr", "--lengths", "0", "--subscriptions", "5", "--events", "5"))
        .isEqualTo(2);
    assertThat(cli.err()).contains("index length 0");
    assertThat(cli.run("bench", "fpr", "--design-subscriptions", "-1")).isEqualTo(2);
    assertThat(cli.err()).contains("--design-subscriptions must be 0 (one host's worth)");
    assertThat(cli.run("bench", "dimensions", "--restricted", "11")).isEqualTo(2);
    assertThat(cli.err()).contains("--restricted values must be in [0, --attributes]");
  }
}
