package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Startup failures in one line, JSON errors, and --config files. */
class OperatingConventionsTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = Nps.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return Nps.run(cl, args);
  }

  /** Runs the controller with its OpenFlow listener on a port that is taken. */
  private int controllerOnABusyPort(String... more) throws IOException {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<String> args = new ArrayList<>(List.of("controller", "--exit-after-start"));
      args.addAll(List.of("--openflow", "tcp:127.0.0.1:" + busy.getLocalPort()));
      args.addAll(List.of("--api", "http://127.0.0.1:0"));
      args.addAll(List.of(more));
      return run(args.toArray(String[]::new));
    }
  }

  @Test
  void anOpenFlowPortInUseIsOneLineAndExit1() throws IOException {
    assertThat(controllerOnABusyPort()).isEqualTo(1);
    assertThat(err.toString())
        .matches("error: cannot listen on 127\\.0\\.0\\.1:\\d+: address already in use\\s*");
  }

  @Test
  void withJsonAStartupFailureIsAJsonErrorObject() throws IOException {
    assertThat(controllerOnABusyPort("--json")).isEqualTo(1);
    JsonNode e = new ObjectMapper().readTree(err.toString()).get("error");
    assertThat(e.get("code").asText()).isEqualTo("io_error");
    assertThat(e.get("message").asText()).contains("address already in use");
  }

  @Test
  void aBadOptionUnderJsonNamesTheField() throws IOException {
    int code = run("controller", "--json", "--nbi", "sideways", "--exit-after-start");
    assertThat(code).isEqualTo(2);
    JsonNode e = new ObjectMapper().readTree(err.toString()).get("error");
    assertThat(e.get("code").asText()).isEqualTo("bad_input");
    assertThat(e.get("field").asText()).isEqualTo("--nbi");
  }

  @Test
  void aUsageErrorUnderJsonIsAJsonErrorObject() throws IOException {
    int code = run("schema", "check", "--json", "--no-such-option", "x.yaml");
    assertThat(code).isEqualTo(2);
    JsonNode e = new ObjectMapper().readTree(err.toString()).get("error");
    assertThat(e.get("code").asText()).isEqualTo("usage");
    assertThat(e.get("message").asText()).contains("--no-such-option");
  }

  @Test
  void aConfigFileGivesOptionsAndTheCommandLineWins() throws IOException {
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(cfg, "nbi: sideways\nopenflow: tcp:127.0.0.1:0\napi: http://127.0.0.1:0\n");
    assertThat(run("controller", "--config", cfg.toString(), "--exit-after-start")).isEqualTo(2);
    assertThat(err.toString()).contains("--nbi must be classified or broadcast, not 'sideways'");
    err.getBuffer().setLength(0);
    int code =
        run("controller", "--config", cfg.toString(), "--nbi", "broadcast", "--exit-after-start");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("controller listening");
  }

  @Test
  void aConfigFileRefusesUnknownKeysAndWrongTypesWithTheirLine() throws IOException {
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(cfg, "# comment\nopenflow: tcp:127.0.0.1:0\nopenflw: x\n");
    assertThat(run("controller", "--config", cfg.toString())).isEqualTo(2);
    assertThat(err.toString()).contains(cfg + " line 3: unknown key 'openflw'");
    err.getBuffer().setLength(0);
    Files.writeString(cfg, "configurators: [1, 2]\n");
    assertThat(run("controller", "--config", cfg.toString())).isEqualTo(2);
    assertThat(err.toString()).contains(cfg + " line 1: 'configurators' must be a single value");
    err.getBuffer().setLength(0);
    Files.writeString(cfg, "exit-after-start: true\n");
    assertThat(run("controller", "--config", cfg.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("unknown key 'exit-after-start'");
  }

  @Test
  void anUnreadableConfigFileIsOneLineAndExit1() {
    Path missing = dir.resolve("missing.yaml");
    assertThat(run("edge-coordinator", "--config", missing.toString())).isEqualTo(1);
    assertThat(err.toString().strip())
        .isEqualTo("error: cannot read " + missing + ": no such file");
  }

  @Test
  void theVersionNamesTheCommit() {
    assertThat(run("-V")).isZero();
    assertThat(out.toString()).matches("netpubsub \\S+ \\(commit ([0-9a-f]{10}|unknown).*\\)\\s*");
  }
}
