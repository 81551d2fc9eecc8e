package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Startup failures in one line, JSON errors, and --config files. */
class OperatingConventionsTest {
  @TempDir Path dir;
  private final CliRun cli = new CliRun();

  /** Runs the controller with its OpenFlow listener on a port that is taken. */
  private int controllerOnABusyPort(String... more) throws IOException {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<String> args = new ArrayList<>(List.of("controller", "--exit-after-start"));
      args.addAll(List.of("--openflow", "tcp:127.0.0.1:" + busy.getLocalPort()));
      args.addAll(List.of("--api", "http://127.0.0.1:0"));
      args.addAll(List.of(more));
      return cli.runAsLauncher(args.toArray(String[]::new));
    }
  }

  @Test
  void anOpenFlowPortInUseIsOneLineAndExit1() throws IOException {
    assertThat(controllerOnABusyPort()).isEqualTo(1);
    assertThat(cli.err())
        .matches("error: cannot listen on 127\\.0\\.0\\.1:\\d+: address already in use\\s*");
  }

  @Test
  void withJsonAStartupFailureIsAJsonErrorObject() throws IOException {
    assertThat(controllerOnABusyPort("--json")).isEqualTo(1);
    JsonNode e = new ObjectMapper().readTree(cli.err()).get("error");
    assertThat(e.get("code").asText()).isEqualTo("io_error");
    assertThat(e.get("message").asText()).contains("address already in use");
  }

  @Test
  void aBadOptionUnderJsonNamesTheField() throws IOException {
    int code = cli.runAsLauncher("controller", "--json", "--nbi", "sideways", "--exit-after-start");
    assertThat(code).isEqualTo(2);
    JsonNode e = new ObjectMapper().readTree(cli.err()).get("error");
    assertThat(e.get("code").asText()).isEqualTo("bad_input");
    assertThat(e.get("field").asText()).isEqualTo("--nbi");
  }

  @Test
  void aUsageErrorUnderJsonIsAJsonErrorObject() throws IOException {
    int code = cli.runAsLauncher("schema", "check", "--json", "--no-such-option", "x.yaml");
    assertThat(code).isEqualTo(2);
    JsonNode e = new ObjectMapper().readTree(cli.err()).get("error");
    assertThat(e.get("code").asText()).isEqualTo("usage");
    assertThat(e.get("message").asText()).contains("--no-such-option");
  }

  @Test
  void aConfigFileGivesOptionsAndTheCommandLineWins() throws IOException {
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(cfg, "nbi: sideways\nopenflow: tcp:127.0.0.1:0\napi: http://127.0.0.1:0\n");
    assertThat(cli.runAsLauncher("controller", "--config", cfg.toString(), "--exit-after-start"))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--nbi must be classified or broadcast, not 'sideways'");
    cli.clear();
    int code =
        cli.runAsLauncher(
            "controller", "--config", cfg.toString(), "--nbi", "broadcast", "--exit-after-start");
    assertThat(code).as(cli.err()).isZero();
    assertThat(cli.out()).contains("controller listening");
  }

  @Test
  void aConfigFileRefusesUnknownKeysAndWrongTypesWithTheirLine() throws IOException {
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(cfg, "# comment\nopenflow: tcp:127.0.0.1:0\nopenflw: x\n");
    assertThat(cli.runAsLauncher("controller", "--config", cfg.toString())).isEqualTo(2);
    assertThat(cli.err()).contains(cfg + " line 3: unknown key 'openflw'");
    cli.clear();
    Files.writeString(cfg, "configurators: [1, 2]\n");
    assertThat(cli.runAsLauncher("controller", "--config", cfg.toString())).isEqualTo(2);
    assertThat(cli.err()).contains(cfg + " line 1: 'configurators' must be a single value");
    cli.clear();
    Files.writeString(cfg, "exit-after-start: true\n");
    assertThat(cli.runAsLauncher("controller", "--config", cfg.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("unknown key 'exit-after-start'");
  }

  @Test
  void anUnreadableConfigFileIsOneLineAndExit1() {
    Path missing = dir.resolve("missing.yaml");
    assertThat(cli.runAsLauncher("edge-coordinator", "--config", missing.toString())).isEqualTo(1);
    assertThat(cli.err().strip()).isEqualTo("error: cannot read " + missing + ": no such file");
  }

  @Test
  void theVersionNamesTheCommit() {
    assertThat(cli.runAsLauncher("-V")).isZero();
    assertThat(cli.out()).matches("netpubsub \\S+ \\(commit ([0-9a-f]{10}|unknown).*\\)\\s*");
  }

  /** main's fast path for --version and -V (no command tree) prints what picocli prints. */
  @Test
  void theFastVersionIsPicocliSVersion() throws IOException {
    assertThat(cli.runAsLauncher("--version")).isZero();
    java.io.PrintStream stdout = System.out;
    for (String flag : List.of("--version", "-V")) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
      try {
        Nps.main(new String[] {flag});
      } finally {
        System.setOut(stdout);
      }
      assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8).strip())
          .isEqualTo(cli.out().strip());
    }
  }
}
