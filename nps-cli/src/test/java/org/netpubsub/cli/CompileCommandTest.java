package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.p4.P4EntriesInterpreter;
import org.netpubsub.content.event.Event;

class CompileCommandTest {
  @TempDir Path dir;
  Path rules;
  Path events;
  private final CliRun cli = new CliRun();

  @BeforeEach
  void files() throws Exception {
    rules = dir.resolve("itch.rules");
    Files.writeString(
        rules,
        """
        # two desks
        stock == "GOOGL" && price > 1000000 : fwd(1);
        stock == "MSFT" || price < 5000 : fwd(2, 3);
        """);
    events = dir.resolve("events.jsonl");
    Files.writeString(
        events,
        """
        {"kind":"filter","filter":"true","ports":[9]}
        {"kind":"event","attributes":{"stock":"GOOGL","price":2000000,"shares":100,"side":"B"}}
        {"kind":"event","attributes":{"stock":"MSFT","price":100,"shares":100,"side":"S"}}
        {"kind":"event","attributes":{"stock":"IBM","price":900000,"shares":100,"side":"S"}}
        """);
  }

  @Test
  void summaryStatsAndEvaluation() throws Exception {
    assertThat(cli.run("compile", "--spec", "itch", "--rules", rules.toString(), "--json"))
        .as(cli.err())
        .isZero();
    JsonNode s = cli.json();
    assertThat(s.get("rules").asInt()).isEqualTo(2);
    assertThat(s.get("entries").asInt()).isPositive();
    cli.clear();

    assertThat(
            cli.run("compile", "--spec", "itch", "--rules", rules.toString(), "--stats", "--json"))
        .isZero();
    JsonNode st = cli.json();
    assertThat(st.get("stats").get("tables")).hasSize(4);
    assertThat(st.get("stats").get("groups").asInt()).isEqualTo(2); // {1} and {2, 3}
    cli.clear();

    assertThat(
            cli.run(
                "compile",
                "--spec",
                "itch",
                "--rules",
                rules.toString(),
                "--eval",
                events.toString(),
                "--json"))
        .isZero();
    String[] lines = cli.out().strip().split("\n");
    assertThat(lines).hasSize(3); // the filter line of the events file is skipped
    assertThat(new ObjectMapper().readTree(lines[0]).get("ports").toString()).isEqualTo("[1]");
    assertThat(new ObjectMapper().readTree(lines[1]).get("ports").toString()).isEqualTo("[2,3]");
    assertThat(new ObjectMapper().readTree(lines[2]).get("ports").toString()).isEqualTo("[]");
  }

  @Test
  void softwareTablesAsFiles() throws Exception {
    assertThat(
            cli.run(
                "compile", "--spec", "itch", "--rules", rules.toString(), "--out", dir.toString()))
        .isZero();
    JsonNode p = new ObjectMapper().readTree(dir.resolve("pipeline.json").toFile());
    assertThat(p.get("tables")).hasSize(4);
    assertThat(p.get("groups")).hasSize(2);
  }

  @Test
  void p4TargetWritesTheControlItsEntriesAndGroups() throws Exception {
    Path p4 = dir.resolve("p4");
    assertThat(
            cli.run(
                "compile",
                "--spec",
                "itch",
                "--rules",
                rules.toString(),
                "--target",
                "p4",
                "--out",
                p4.toString()))
        .as(cli.err())
        .isZero();
    String program = Files.readString(p4.resolve("camus.p4"));
    assertThat(program)
        .contains("control CamusIngress(")
        .contains("table field_stock {")
        .contains("hdr.itch.price : range;")
        .contains("table leaf {")
        .contains("leaf.apply();");
    String entries = Files.readString(p4.resolve("entries.json"));
    String groups = Files.readString(p4.resolve("groups.json"));
    assertThat(new ObjectMapper().readTree(groups).get("multicast_group_entries")).hasSize(2);
    // the files alone, run as a v1model switch would, forward as the software tables do
    MessageSpec itch = BuiltinSpecs.itch();
    P4EntriesInterpreter sw = P4EntriesInterpreter.of(itch, entries, groups);
    assertThat(sw.ports(quote(itch, "GOOGL", 2000000))).containsExactly(1);
    assertThat(sw.ports(quote(itch, "MSFT", 100))).containsExactly(2, 3);
    assertThat(sw.ports(quote(itch, "IBM", 900000))).isEmpty();
    assertThat(pipelineFiles(p4)).containsExactly("camus.p4", "entries.json", "groups.json");

    Files.writeString(rules, "price > 5 : fwd(600)\n");
    assertThat(
            cli.run(
                "compile",
                "--spec",
                "itch",
                "--rules",
                rules.toString(),
                "--target",
                "p4",
                "--out",
                p4.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("port 600 does not fit v1model's 9-bit ports");
  }

  @Test
  void aggregatesAreEvaluatedAsAtTheLastHopInEventOrder() throws Exception {
    Files.writeString(
        rules,
        """
        stock == "GOOGL" && count() > 1 over 100ms : fwd(4);
        stock == "MSFT" : fwd(2);
        """);
    Files.writeString(
        events,
        """
        {"kind":"event","attributes":{"stock":"GOOGL","price":1,"shares":1,"side":"B"},"timestamp_ns":0}
        {"kind":"event","attributes":{"stock":"GOOGL","price":1,"shares":1,"side":"B"},"timestamp_ns":50000000}
        {"kind":"event","attributes":{"stock":"MSFT","price":1,"shares":1,"side":"B"},"timestamp_ns":60000000}
        {"kind":"event","attributes":{"stock":"GOOGL","price":1,"shares":1,"side":"B"},"timestamp_ns":100000000}
        """);
    assertThat(
            cli.run(
                "compile",
                "--spec",
                "itch",
                "--rules",
                rules.toString(),
                "--eval",
                events.toString(),
                "--json",
                "--out",
                dir.toString()))
        .as(cli.err())
        .isZero();
    assertThat(cli.out().strip().lines().map(l -> l.replaceAll(".*\"ports\":", "")))
        .containsExactly("[]}", "[4]}", "[2]}", "[]}"); // 1, 2 > 1, -, a new window: 1
    JsonNode p = new ObjectMapper().readTree(dir.resolve("pipeline.json").toFile());
    assertThat(p.get("conditional_actions").get(0).get("port").asInt()).isEqualTo(4);
    assertThat(
            p.get("conditional_actions").get(0).get("conditions").get(0).get("aggregate").asText())
        .isEqualTo("count() > 1 over 100ms");
    assertThat(p.get("groups").toString()).contains("\"ports\":[4],\"actions\":[1048576]");

    Files.writeString(
        events,
        """
        {"kind":"event","attributes":{"stock":"GOOGL","price":1,"shares":1,"side":"B"},"timestamp_ns":9}
        {"kind":"event","attributes":{"stock":"GOOGL","price":1,"shares":1,"side":"B"},"timestamp_ns":5}
        """);
    assertThat(
            cli.run(
                "compile",
                "--spec",
                "itch",
                "--rules",
                rules.toString(),
                "--eval",
                events.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("event 1: time went backwards: 5 ns after 9 ns");
  }

  static long[] quote(MessageSpec spec, String stock, long price) {
    return spec.values(
        Event.builder(spec.schema())
            .set("stock", stock)
            .set("price", price)
            .set("shares", 100)
            .set("side", "B")
            .build());
  }

  static List<String> pipelineFiles(Path d) throws Exception {
    try (var s = Files.list(d)) {
      return s.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void openflowFilesForOvsOfctl() throws Exception {
    assertThat(
            cli.run(
                "compile",
                "--spec",
                "itch",
                "--rules",
                rules.toString(),
                "--target",
                "openflow",
                "--out",
                dir.toString()))
        .as(cli.err())
        .isZero();
    List<String> flows = Files.readAllLines(dir.resolve("flows.txt"));
    assertThat(flows.get(0))
        .contains("table=0")
        .contains("ipv6_dst=ff0e::/16")
        .contains("goto_table:1");
    assertThat(flows).anyMatch(f -> f.contains("table=1") && f.contains("write_metadata"));
    assertThat(Files.readAllLines(dir.resolve("groups.txt"))).hasSize(2);
    JsonNode layout = new ObjectMapper().readTree(dir.resolve("layout.json").toFile());
    assertThat(layout.get("fields").get(0).get("field").asText()).isEqualTo("stock");
    assertThat(layout.get("fields").get(1).get("first_bit").asInt()).isEqualTo(80);
  }

  @Test
  void badInputExitsTwoWithTheSpot() throws Exception {
    Files.writeString(rules, "stock == \"GOOGL\" : fwd(1)\nprice > > 5 : fwd(2)\n");
    assertThat(cli.run("compile", "--spec", "itch", "--rules", rules.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("line 2, column 9").contains("^");
    assertThat(cli.run("compile", "--spec", "nope.yaml", "--rules", rules.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("cannot read spec nope.yaml");
    assertThat(
            cli.run("compile", "--spec", "itch", "--rules", rules.toString(), "--target", "asic"))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--target must be software, openflow or p4");
  }
}
