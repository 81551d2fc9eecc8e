package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.ZipfModel;

class WorkloadGenCommandTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private record Run(int exit, String out, String err) {
    List<JsonNode> lines() throws IOException {
      List<JsonNode> nodes = new ArrayList<>();
      for (String line : out.lines().toList()) {
        nodes.add(MAPPER.readTree(line));
      }
      return nodes;
    }
  }

  private static Run run(String... args) {
    CliRun cli = new CliRun();
    int exit = cli.run(args);
    return new Run(exit, cli.out(), cli.err());
  }

  @Test
  void zipfWorkloadOnStdoutSubscriptionsFirst(@TempDir Path dir) throws IOException {
    Path schema = dir.resolve("zipf.yaml");
    Run r =
        run(
            "workload",
            "gen",
            "zipf",
            "--seed",
            "7",
            "--subscriptions",
            "12",
            "--events",
            "30",
            "--hosts",
            "4",
            "--attributes",
            "3",
            "--spread",
            "1,0.5,0",
            "--schema-out",
            schema.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> lines = r.lines();
    assertThat(lines).hasSize(42);
    for (int i = 0; i < 12; i++) {
      JsonNode s = lines.get(i);
      assertThat(s.get("kind").asText()).isEqualTo("filter");
      assertThat(s.get("filter").asText()).startsWith("a0 in [");
      assertThat(s.get("host").asText()).matches("h[1-4]");
      assertThat(s.has("at_ms")).isFalse();
    }
    for (int i = 12; i < 42; i++) {
      JsonNode e = lines.get(i);
      assertThat(e.get("kind").asText()).isEqualTo("event");
      assertThat(e.get("attributes").fieldNames()).toIterable().containsExactly("a0", "a1", "a2");
    }
    // SchemaLoader is written elsewhere: compare with what the writer makes of the model's schema.
    String expected = SchemaWriter.toYaml(new ZipfModel(new IntSpace(3, 1024, 0.25, 1.0)).schema());
    assertThat(Files.readString(schema)).isEqualTo(expected).contains("name: zipf");
    assertThat(r.err()).contains("zipf workload, seed 7: 12 subscriptions for 4 hosts (hotspot)");
  }

  @Test
  void sameSeedSameBytesOtherSeedOtherBytes() {
    String a = run("workload", "gen", "ssbg", "--seed", "3", "--disjunctions", "1").out();
    String b = run("workload", "gen", "ssbg", "--seed", "3", "--disjunctions", "1").out();
    String c = run("workload", "gen", "ssbg", "--seed", "4", "--disjunctions", "1").out();
    assertThat(a).isEqualTo(b).isNotEqualTo(c);
    assertThat(a.lines()).hasSize(1100); // defaults: 100 subscriptions, 1000 events
  }

  @Test
  void itchToFileWithPortsArrivalsAndJsonSummary(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("itch.jsonl");
    Run r =
        run(
            "workload",
            "gen",
            "itch",
            "--itch-model",
            "simple",
            "--subscriptions",
            "20",
            "--events",
            "5",
            "--arrival",
            "poisson",
            "--rate",
            "100",
            "--out",
            file.toString(),
            "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode summary = MAPPER.readTree(r.out());
    assertThat(summary.get("model").asText()).isEqualTo("itch");
    assertThat(summary.get("subscriptions").asInt()).isEqualTo(20);
    assertThat(summary.get("events").asLong()).isEqualTo(5);
    assertThat(summary.get("hosts").asInt()).isEqualTo(200);
    assertThat(summary.get("arrival").asText()).isEqualTo("poisson");
    assertThat(summary.get("out").asText()).isEqualTo(file.toString());
    assertThat(r.err()).isEmpty();
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(25);
    double previous = 0;
    for (String line : lines.subList(0, 20)) {
      JsonNode s = MAPPER.readTree(line);
      assertThat(s.get("filter").asText()).matches("stock == \"[A-Z]+\" && price > \\d+");
      assertThat(s.get("ports").get(0).asInt()).isBetween(1, 200);
      assertThat(s.has("host")).isFalse();
      assertThat(s.get("at_ms").asDouble()).isGreaterThanOrEqualTo(previous);
      previous = s.get("at_ms").asDouble();
    }
    JsonNode event = MAPPER.readTree(lines.get(20)).get("attributes");
    assertThat(event.fieldNames()).toIterable().containsExactly("stock", "price", "shares", "side");
  }

  @Test
  void uniformDividesRoundRobin() throws IOException {
    Run r =
        run(
            "workload",
            "gen",
            "uniform",
            "--subscriptions",
            "8",
            "--events",
            "0",
            "--hosts",
            "4",
            "--arrival",
            "uniform",
            "--rate",
            "2000");
    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> lines = r.lines();
    assertThat(lines)
        .extracting(l -> l.get("host").asText())
        .containsExactly("h1", "h2", "h3", "h4", "h1", "h2", "h3", "h4");
    assertThat(lines)
        .extracting(l -> l.get("at_ms").asDouble())
        .containsExactly(0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5);
  }

  @Test
  void badInputExitsWithTwo() {
    Run unknown = run("workload", "gen", "pareto");
    assertThat(unknown.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(unknown.err()).contains("unknown model 'pareto'");

    Run wrongModel = run("workload", "gen", "uniform", "--hotspots", "3", "--disjunctions", "1");
    assertThat(wrongModel.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(wrongModel.err())
        .contains("--hotspots, --disjunctions does not apply to model uniform");

    Run tooMany = run("workload", "gen", "uniform", "--attributes", "11");
    assertThat(tooMany.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(tooMany.err()).contains("attributes must be in [1, 10]");

    Run rateAlone = run("workload", "gen", "uniform", "--rate", "5");
    assertThat(rateAlone.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(rateAlone.err()).contains("--rate needs --arrival");

    Run hotspotUniform = run("workload", "gen", "uniform", "--assign", "hotspot");
    assertThat(hotspotUniform.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(hotspotUniform.err()).contains("hotspot");
    assertThat(hotspotUniform.out()).isEmpty();

    Run simpleZipf = run("workload", "gen", "itch", "--itch-model", "simple", "--zipf-s", "2");
    assertThat(simpleZipf.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
  }

  @Test
  void unwritableOutputIsBadInput(@TempDir Path dir) {
    Run r = run("workload", "gen", "uniform", "--out", dir.resolve("no/such/dir/x").toString());
    assertThat(r.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(r.err()).contains("cannot write");
  }
}
