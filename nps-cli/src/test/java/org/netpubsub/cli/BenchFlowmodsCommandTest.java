package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code nps bench flowmods} against the simulated switch (OVS is measured by hand). */
class BenchFlowmodsCommandTest {
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  int run(String... args) {
    CommandLine cl = Nps.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args);
  }

  @Test
  void jsonHasARatePerBatchSize() throws Exception {
    assertThat(
            run(
                "bench",
                "flowmods",
                "--target",
                "sim",
                "--batches",
                "1,10",
                "--count",
                "40",
                "--json"))
        .as(err.toString())
        .isZero();
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertThat(j.get("machine").get("nproc").asInt()).isPositive();
    assertThat(j.get("results")).hasSize(2);
    assertThat(j.get("results").get(0).get("target").asText()).isEqualTo("sim");
    assertThat(j.get("results").get(1).get("batch").asInt()).isEqualTo(10);
    assertThat(j.get("results").get(1).get("adds_per_second").asLong()).isPositive();
    assertThat(j.get("results").get(1).get("deletes_per_second").asLong()).isPositive();
  }

  @Test
  void textTableAndBadTarget() {
    assertThat(run("bench", "flowmods", "--target", "sim", "--batches", "5", "--count", "10"))
        .isZero();
    assertThat(out.toString()).contains("adds/s").contains("sim").contains("     5");
    assertThat(run("bench", "flowmods", "--target", "nox")).isEqualTo(2);
    assertThat(err.toString()).contains("--target must be sim, ovs or both");
  }
}
