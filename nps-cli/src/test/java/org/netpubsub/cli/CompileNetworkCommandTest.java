package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nps compile --policy mr|tr --topology fattree:K}: per-layer stats, traffic, churn. */
class CompileNetworkCommandTest {
  @TempDir Path dir;
  Path workload;
  private final CliRun cli = new CliRun();

  /** One run's output only. */
  private int run(String... args) {
    cli.clear();
    return cli.run(args);
  }

  @BeforeEach
  void files() throws Exception {
    workload = dir.resolve("itch.jsonl");
    // h1 (edge s13, pod 0) and h16 (s20, pod 3) subscribe; h3 publishes; port 2 = h2
    Files.writeString(
        workload,
        """
        {"kind":"filter","filter":"stock == \\"GOOGL\\"","host":"h1"}
        {"kind":"filter","filter":"stock == \\"GOOGL\\" && price > 1000000","ports":[16]}
        {"kind":"filter","filter":"stock == \\"MSFT\\"","ports":[2, 16]}
        {"kind":"event","attributes":{"stock":"GOOGL","price":2000000,"shares":100,"side":"B"}}
        {"kind":"event","attributes":{"stock":"GOOGL","price":500000,"shares":100,"side":"B"}}
        {"kind":"event","attributes":{"stock":"MSFT","price":500000,"shares":100,"side":"S"}}
        """);
  }

  JsonNode runJson(String... args) throws Exception {
    assertThat(run(args)).as(cli.err()).isZero();
    return cli.json();
  }

  @Test
  void perLayerStatsUnderBothPolicies() throws Exception {
    String[] base = {
      "compile",
      "--spec",
      "itch",
      "--topology",
      "fattree:4",
      "--rules",
      workload.toString(),
      "--json"
    };
    JsonNode mr = runJson(concat(base, "--policy", "mr", "--stats"));
    assertThat(mr.get("subscriptions").asInt()).isEqualTo(4); // the two-port line is two
    assertThat(mr.get("switches").asInt()).isEqualTo(20);
    JsonNode layers = mr.get("layers");
    assertThat(layers).hasSize(3);
    assertThat(layers.get(0).get("layer").asText()).isEqualTo("edge");
    // MR: the edge holds its hosts' 4 subscriptions plus 8 × true : fwd(UP)
    assertThat(layers.get(0).get("rules").asInt()).isEqualTo(4 + 8);
    assertThat(layers.get(2).get("rules").asInt()).isEqualTo(4 * 4);
    assertThat(mr.get("per_switch")).hasSize(20);
    assertThat(mr.get("compile_cpu_ms").asDouble()).isPositive();
    assertThat(layers.get(1).get("compile_cpu_ms").asDouble()).isPositive();
    JsonNode tr = runJson(concat(base, "--policy", "tr", "--alpha", "10000"));
    // TR: every edge switch holds every subscription, down or up
    assertThat(tr.get("layers").get(0).get("rules").asInt()).isEqualTo(8 * 4);
    assertThat(tr.get("layers").get(1).get("alpha").asLong()).isEqualTo(10000);
    assertThat(tr.get("layers").get(0).get("alpha").asLong()).isEqualTo(1);
  }

  @Test
  void evalCountsDeliveriesAndTrafficPerLayer() throws Exception {
    JsonNode m =
        runJson(
            "compile",
            "--spec",
            "itch",
            "--policy",
            "tr",
            "--topology",
            "fattree:4",
            "--rules",
            workload.toString(),
            "--eval",
            workload.toString(),
            "--churn",
            "2",
            "--warmup",
            "--json");
    JsonNode t = m.get("traffic");
    assertThat(t.get("events").asInt()).isEqualTo(3);
    // event 0 (h1 publishes): h16; event 1 (h2): h1; event 2 (h3): h2, h16
    assertThat(t.get("expected_deliveries").asInt()).isEqualTo(4);
    assertThat(t.get("delivered").asInt()).isEqualTo(4);
    assertThat(t.get("missed").asInt()).isZero();
    assertThat(t.get("unwanted").asInt()).isZero();
    for (JsonNode l : t.get("layers")) {
      assertThat(l.get("extra").asInt()).as("TR, exact: %s", l).isZero();
    }
    assertThat(t.get("layers").get(2).get("sent").asInt()).isEqualTo(2); // events 0 and 2
    JsonNode c = m.get("recompile");
    assertThat(c.get("updates").asInt()).isEqualTo(4);
    assertThat(c.get("switches_per_update").asDouble()).isEqualTo(20);
    assertThat(m.get("warmup").asBoolean()).isTrue();
  }

  @Test
  void textOutputNamesTheLayers() {
    assertThat(
            run(
                "compile",
                "--spec",
                "itch",
                "--policy",
                "mr",
                "--topology",
                "fattree:4",
                "--rules",
                workload.toString(),
                "--eval",
                workload.toString()))
        .isZero();
    assertThat(cli.out())
        .contains("fattree:4, MR")
        .contains("aggregation")
        .contains("3 events: 4 deliveries expected, 4 made, 0 missed");
  }

  @Test
  void badCombinationsAndHostsExitTwo() throws Exception {
    String w = workload.toString();
    assertThat(run("compile", "--spec", "itch", "--policy", "mr", "--rules", w)).isEqualTo(2);
    assertThat(cli.err()).contains("--policy and --topology go together");
    assertThat(
            run(
                "compile",
                "--spec",
                "itch",
                "--policy",
                "xx",
                "--topology",
                "fattree:4",
                "--rules",
                w))
        .isEqualTo(2);
    assertThat(cli.err()).contains("unknown routing policy 'xx'");
    assertThat(
            run(
                "compile",
                "--spec",
                "itch",
                "--policy",
                "mr",
                "--topology",
                "ring:4",
                "--rules",
                w))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--topology must be fattree:K");
    assertThat(
            run(
                "compile",
                "--spec",
                "itch",
                "--policy",
                "mr",
                "--topology",
                "fattree:2",
                "--rules",
                w))
        .isEqualTo(2);
    assertThat(cli.err()).contains("host h16, but fattree:2 has h1..h2");
    Path rules = dir.resolve("r.rules");
    Files.writeString(rules, "stock == \"GOOGL\" : fwd(1, 2);\n");
    JsonNode m =
        runJson(
            "compile",
            "--spec",
            "itch",
            "--policy",
            "mr",
            "--topology",
            "fattree:2",
            "--rules",
            rules.toString(),
            "--json");
    assertThat(m.get("subscriptions").asInt()).isEqualTo(2);
    assertThat(
            run(
                "compile",
                "--spec",
                "itch",
                "--policy",
                "mr",
                "--topology",
                "fattree:4",
                "--rules",
                w,
                "--out",
                dir.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("not with --policy");
  }

  static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
