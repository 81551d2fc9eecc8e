package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nps index design}, end to end through the command line. */
class IndexDesignCommandTest {
  @TempDir Path dir;
  private final CliRun cli = new CliRun();

  @Test
  void aSymbolPointIsExactWithTheLearnedLayoutAndNotWithRoundRobin() throws IOException {
    Path schema = dir.resolve("q.yaml");
    Files.writeString(
        schema,
        """
        name: q
        attributes:
          - {name: symbol, type: string, max_length: 4}
          - {name: price, type: int, min: 0, max: 1023}
        index: [price]
        """);
    List<String> lines = new ArrayList<>();
    lines.add("{\"kind\":\"filter\",\"filter\":\"symbol == \\\"IBM\\\"\"}");
    lines.add("{\"kind\":\"filter\",\"filter\":\"price > 800\"}");
    String[] symbols = {"IBM", "AAPL", "MSFT", "NVDA"};
    for (int i = 0; i < 400; i++) {
      lines.add(
          "{\"kind\":\"event\",\"attributes\":{\"symbol\":\""
              + symbols[i % 4]
              + "\",\"price\":"
              + (i * 7 % 1024)
              + "}}");
    }
    Path workload = dir.resolve("w.jsonl");
    Files.write(workload, lines);
    int code =
        cli.run(
            "index",
            "design",
            "--schema",
            schema.toString(),
            "--workload",
            workload.toString(),
            "--length",
            "10",
            "--json");
    assertThat(code).as(cli.err()).isZero();
    JsonNode j = cli.json();
    assertThat(j.get("layout").get("codings").get("symbol").get("kind").asText())
        .isEqualTo("dictionary");
    assertThat(j.get("layout").get("codings").get("price").get("kind").asText()).isEqualTo("cuts");
    assertThat(j.get("expected_fpr").asDouble()).isZero();
    // round-robin indexes price only: symbol == "IBM" receives every event
    assertThat(j.get("per_subscription").get(0).get("false_positives_round_robin").asInt())
        .isEqualTo(300);
    assertThat(j.get("round_robin_fpr").asDouble()).isGreaterThan(0.3);
    assertThat(j.get("schema_yaml").asText()).contains("layout:");

    Files.writeString(workload, "{\"kind\":\"filter\",\"filter\":\"nope > 1\"}\n");
    assertThat(
            cli.run(
                "index",
                "design",
                "--schema",
                schema.toString(),
                "--workload",
                workload.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("w.jsonl line 1:").contains("nope");

    // a flow budget: designed per host union, still exact here; a negative budget is refused
    Files.write(workload, lines);
    String[] budgeted = {
      "index",
      "design",
      "--schema",
      schema.toString(),
      "--workload",
      workload.toString(),
      "--length",
      "10",
      "--max-flows",
      "4",
      "--host-subscriptions",
      "2",
      "--json"
    };
    CliRun fresh = new CliRun(); // its output holds this run's JSON only
    assertThat(fresh.run(budgeted)).as(fresh.err()).isZero();
    assertThat(fresh.json().get("max_flows").asInt()).isEqualTo(4);
    assertThat(fresh.json().get("expected_fpr").asDouble()).isZero();
    budgeted[9] = "-1";
    assertThat(cli.run(budgeted)).isEqualTo(2);
    assertThat(cli.err()).contains("--max-flows must be 0 (no budget) or positive");
  }
}
