package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreesCommandTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * A ring of six routers, each with a one-link edge router (the periphery), in node-link form with
   * string ids, names, one repeated link, one self-loop and one isolated node.
   */
  static final String RING =
      """
      {"directed": false, "multigraph": true, "graph": {"name": "ring"},
       "nodes": [
        {"id": "0", "name": "r0"}, {"id": "1", "name": "r1"}, {"id": "2", "name": "r2"},
        {"id": "3", "name": "r3"}, {"id": "4", "name": "r4"}, {"id": "5", "name": "r5"},
        {"id": "6", "name": "e0"}, {"id": "7", "name": "e1"}, {"id": "8", "name": "e2"},
        {"id": "9", "name": "e3"}, {"id": "10", "name": "e4"}, {"id": "11", "name": "e5"},
        {"id": "12", "name": "alone"}],
       "edges": [
        {"source": "0", "target": "1"}, {"source": "1", "target": "2"},
        {"source": "2", "target": "3"}, {"source": "3", "target": "4"},
        {"source": "4", "target": "5"}, {"source": "5", "target": "0"},
        {"source": "0", "target": "6"}, {"source": "1", "target": "7"},
        {"source": "2", "target": "8"}, {"source": "3", "target": "9"},
        {"source": "4", "target": "10"}, {"source": "5", "target": "11"},
        {"source": "1", "target": "0"}, {"source": "3", "target": "3"}]}
      """;

  private record Run(int exit, String out, String err) {
    JsonNode json() throws IOException {
      return MAPPER.readTree(out);
    }
  }

  private static Run run(String... args) {
    CliRun cli = new CliRun();
    int exit = cli.run(args);
    return new Run(exit, cli.out(), cli.err());
  }

  private static Path ring(Path dir) throws IOException {
    Path file = dir.resolve("ring.json");
    Files.writeString(file, RING);
    return file;
  }

  @Test
  void reportsBsidsWithAndWithoutSharingOnTheLargestComponent(@TempDir Path dir)
      throws IOException {
    String file = ring(dir).toString();
    Run r =
        run(
            "trees",
            "--topology",
            file,
            "--groups",
            "200",
            "--group-size",
            "3",
            "--members",
            "locality",
            "--strategy",
            "rp",
            "--seed",
            "5",
            "--checkpoint-every",
            "50",
            "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("nodes").asInt()).isEqualTo(12);
    assertThat(j.get("links").asInt()).isEqualTo(12);
    assertThat(j.get("dropped_nodes").asInt()).isEqualTo(1);
    assertThat(j.get("border_nodes").asInt()).isEqualTo(6); // the edge routers
    assertThat(j.get("rp").asText()).isEqualTo("r0"); // all ring nodes tie: the lowest id
    assertThat(j.get("checkpoints")).hasSize(4);
    assertThat(j.get("checkpoints").get(3).get("groups").asInt()).isEqualTo(200);
    double sharing = j.get("sharing_per_group").asDouble();
    double independent = j.get("independent_per_group").asDouble();
    // 200 groups over 6 edge routers repeat their member sets: sharing must pay off
    assertThat(sharing).isPositive().isLessThan(independent);
    assertThat(j.get("ratio").asDouble()).isCloseTo(independent / sharing, within(1e-9));
    assertThat(r.err()).contains("trees: 200 groups on " + file);

    Run again =
        run(
            "trees",
            "--topology",
            file,
            "--groups",
            "200",
            "--group-size",
            "3",
            "--members",
            "locality",
            "--strategy",
            "rp",
            "--seed",
            "5",
            "--checkpoint-every",
            "50",
            "--json");
    assertThat(again.out()).isEqualTo(r.out());
    Run other =
        run(
            "trees",
            "--topology",
            file,
            "--groups",
            "200",
            "--group-size",
            "3",
            "--members",
            "random",
            "--strategy",
            "rp",
            "--seed",
            "6",
            "--checkpoint-every",
            "50",
            "--json");
    assertThat(other.out()).isNotEqualTo(r.out());
  }

  @Test
  void textTableHasOneLinePerCheckpoint(@TempDir Path dir) throws IOException {
    Run r =
        run(
            "trees",
            "--topology",
            ring(dir).toString(),
            "--groups",
            "30",
            "--group-size",
            "5",
            "--border",
            "all");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("12 nodes, 12 links (largest component; 1 nodes dropped); 12 all border nodes")
        .contains("direct trees, random members");
    assertThat(r.out().lines()).hasSize(2 + 10);
  }

  @Test
  void badInputExitsWithTwo(@TempDir Path dir) throws IOException {
    String file = ring(dir).toString();
    Run members = run("trees", "--topology", file, "--members", "nearby");
    assertThat(members.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(members.err()).contains("--members takes random or locality, not 'nearby'");

    Run strategy = run("trees", "--topology", file, "--strategy", "steiner");
    assertThat(strategy.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(strategy.err()).contains("--strategy takes direct or rp");

    Run tooBig = run("trees", "--topology", file, "--group-size", "6");
    assertThat(tooBig.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(tooBig.err()).contains("needs at least 7 border nodes").contains("there are 6");

    Run missing = run("trees", "--topology", dir.resolve("nope.json").toString());
    assertThat(missing.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(missing.err()).contains("cannot read topology");

    Path junk = dir.resolve("junk.json");
    Files.writeString(junk, "{\"nodes\": [");
    Run notJson = run("trees", "--topology", junk.toString());
    assertThat(notJson.err()).contains("is not JSON");
    Files.writeString(
        junk, "{\"nodes\": [{\"id\": 1}], \"edges\": [{\"source\": 1, \"target\": 2}]}");
    Run badLink = run("trees", "--topology", junk.toString());
    assertThat(badLink.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(badLink.err()).contains("has no known target node");

    Run zero = run("trees", "--topology", file, "--groups", "0");
    assertThat(zero.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
  }

  @Test
  void zooNamesNeedTheTestBedsVenv(@TempDir Path dir) throws IOException {
    String before = System.getProperty("nps.home");
    try {
      System.setProperty("nps.home", dir.toString());
      Run none = run("trees", "--topology", "zoo:TataNld");
      assertThat(none.exit()).isEqualTo(Nps.EXIT_BAD_INPUT);
      assertThat(none.err()).contains("run scripts/bootstrap");

      Path zoo = dir.resolve("testbed/.venv/lib/python3.11/site-packages/topohub/data/topozoo");
      Files.createDirectories(zoo);
      Files.writeString(zoo.resolve("Ring.json"), RING);
      Run unknown = run("trees", "--topology", "zoo:Cogentco");
      assertThat(unknown.err()).contains("no Topology Zoo network 'Cogentco' in " + zoo);
      Run ok =
          run("trees", "--topology", "zoo:Ring", "--groups", "5", "--group-size", "2", "--json");
      assertThat(ok.exit()).as(ok.err()).isZero();
      assertThat(ok.json().get("nodes").asInt()).isEqualTo(12);
    } finally {
      if (before == null) {
        System.clearProperty("nps.home");
      } else {
        System.setProperty("nps.home", before);
      }
    }
  }

  /** The real TataNld when this checkout has run scripts/bootstrap. */
  @Test
  void tataNldFromTopohub() throws IOException {
    Path venv = TestbedScript.home().resolve("testbed/.venv");
    Assumptions.assumeTrue(Files.isDirectory(venv), "no testbed/.venv: run scripts/bootstrap");
    Run r =
        run(
            "trees",
            "--topology",
            "zoo:TataNld",
            "--groups",
            "100",
            "--group-size",
            "40",
            "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("nodes").asInt()).isEqualTo(143);
    assertThat(j.get("links").asInt()).isEqualTo(181);
    assertThat(j.get("border_nodes").asInt()).isEqualTo(90);
    assertThat(j.get("ratio").asDouble()).isGreaterThanOrEqualTo(1.0);
  }
}
