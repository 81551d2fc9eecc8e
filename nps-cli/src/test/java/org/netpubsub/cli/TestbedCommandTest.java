package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nps testbed commands pass their arguments and the exit code through to the Python script. */
class TestbedCommandTest {
  /** A stand-in for testbed/nps-testbed: records its arguments, exits with 7. */
  private static final String FAKE =
      """
      import json, os, sys
      with open(os.path.join(os.path.dirname(__file__), "args.json"), "w") as f:
          json.dump(sys.argv[1:], f)
      sys.exit(7)
      """;

  @TempDir Path home;
  private final CliRun cli = new CliRun();

  @BeforeEach
  void fakeTestbed() throws IOException {
    Files.createDirectories(home.resolve("testbed"));
    Files.writeString(home.resolve("testbed/nps-testbed"), FAKE);
    System.setProperty("nps.home", home.toString());
  }

  @AfterEach
  void restore() {
    System.clearProperty("nps.home");
  }

  private List<String> recorded() throws IOException {
    return List.of(
        new ObjectMapper().readValue(home.resolve("testbed/args.json").toFile(), String[].class));
  }

  @Test
  void upPassesItsOptionsAndJson() throws IOException {
    assertThat(cli.run("testbed", "up", "--topo", "fattree:4", "--standalone", "--json"))
        .isEqualTo(7);
    assertThat(recorded()).containsExactly("up", "--topo", "fattree:4", "--standalone", "--json");
  }

  @Test
  void execPassesTheCommandUntouched() throws IOException {
    assertThat(
            cli.run("testbed", "exec", "h1", "--", "ping", "-6", "-c1", "--json", "fd6e:7073:1::3"))
        .isEqualTo(7);
    assertThat(recorded())
        .containsExactly("exec", "h1", "ping", "-6", "-c1", "--json", "fd6e:7073:1::3");
  }

  @Test
  void execWithoutDashDashKeepsTheOrder() throws IOException {
    assertThat(cli.run("testbed", "exec", "h2", "ip", "-6", "-o", "addr")).isEqualTo(7);
    assertThat(recorded()).containsExactly("exec", "h2", "ip", "-6", "-o", "addr");
  }

  @Test
  void everyOtherCommandIsPassedThrough() throws IOException {
    assertThat(cli.run("testbed", "link", "s1", "s2", "down")).isEqualTo(7);
    assertThat(recorded()).containsExactly("link", "s1", "s2", "down");
    assertThat(cli.run("testbed", "switch", "s1", "up", "--json")).isEqualTo(7);
    assertThat(recorded()).containsExactly("switch", "s1", "up", "--json");
    assertThat(cli.run("testbed", "down", "--timeout", "5")).isEqualTo(7);
    assertThat(recorded()).containsExactly("down", "--timeout", "5");
    assertThat(cli.run("testbed", "hosts", "--json")).isEqualTo(7);
    assertThat(recorded()).containsExactly("hosts", "--json");
    assertThat(cli.run("testbed", "clean")).isEqualTo(7);
    assertThat(recorded()).containsExactly("clean");
  }

  @Test
  void aMissingTestbedIsExplained() throws IOException {
    Files.delete(home.resolve("testbed/nps-testbed"));
    assertThat(cli.run("testbed", "hosts")).isEqualTo(1);
    assertThat(cli.err()).contains("no test bed at").contains("NPS_HOME");
  }

  @Test
  void withoutSettingsTheCheckoutIsFoundFromTheClassDirectory() {
    System.clearProperty("nps.home");
    Assumptions.assumeTrue(System.getenv("NPS_HOME") == null);
    assertThat(TestbedScript.script()).endsWith(Path.of("testbed", "nps-testbed"));
  }
}
