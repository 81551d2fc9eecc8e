package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.coordinator.EdgeCoordinator;

/** {@code nps edge-coordinator} and {@code nps edge-agent}: start lines, counters, bad input. */
class EdgeCommandsTest {
  private final CliRun cli = new CliRun();
  @TempDir Path dir;

  @Test
  void theCoordinatorStartsOnAFreePortAndSaysSo() throws Exception {
    int code =
        cli.run(
            "edge-coordinator",
            "--listen",
            "127.0.0.1:0",
            "--db",
            "sqlite:" + dir.resolve("c.db"),
            "--json",
            "--exit-after-start");
    assertThat(code).as(cli.err()).isZero();
    JsonNode o = cli.lines().get(0);
    assertThat(o.get("kind").asText()).isEqualTo("edge-coordinator");
    assertThat(o.get("api").asText()).matches("http://127\\.0\\.0\\.1:[1-9][0-9]*");
    assertThat(o.get("mode").asText()).isEqualTo("spray");
  }

  @Test
  void theAgentRegistersConnectsAndPrintsItsCounters() throws Exception {
    try (Mosquitto m = Mosquitto.start(dir);
        EdgeCoordinator c =
            EdgeCoordinator.builder().database("sqlite:" + dir.resolve("c.db")).start()) {
      InetSocketAddress api = c.address();
      int code =
          cli.run(
              "edge-agent",
              "--broker",
              "mqtt://127.0.0.1:" + m.port(),
              "--coordinator",
              "http://127.0.0.1:" + api.getPort(),
              "--edge",
              "edge-1",
              "--listen",
              "127.0.0.1:0",
              "--reliable",
              "--retransmit-buffer",
              "50",
              "--datagram-key",
              keyFile(),
              "--json",
              "--exit-after-start");
      assertThat(code).as(cli.err()).isZero();
      List<JsonNode> l = cli.lines();
      assertThat(l.get(0).get("kind").asText()).isEqualTo("edge-agent");
      assertThat(l.get(0).get("mode").asText()).isEqualTo("spray");
      assertThat(l.get(0).get("reliable").asBoolean()).isTrue();
      assertThat(l.get(1).get("reliable").has("pending")).isTrue();
      assertThat(l.get(1).get("kind").asText()).isEqualTo("stats");
      assertThat(l.get(1).has("forwarded")).isTrue();
      assertThat(l.get(1).get("dropped").isObject()).isTrue();
      assertThat(c.edges().keySet().iterator().next().name()).isEqualTo("edge-1");
    }
  }

  @Test
  void badInputIsExit2WithTheReason() {
    assertThat(
            cli.run(
                "edge-coordinator",
                "--listen",
                "127.0.0.1:0",
                "--db",
                "postgresql://127.0.0.1:1/nps"))
        .isEqualTo(2);
    assertThat(cli.err()).contains("cannot open PostgreSQL database");
    assertThat(cli.run(agent("http://127.0.0.1:1883", "127.0.0.1:0"))).isEqualTo(2);
    assertThat(cli.err()).contains("--broker must be mqtt://HOST:PORT");
    assertThat(cli.run(agent("mqtt://127.0.0.1:1883", "0.0.0.0:0"))).isEqualTo(2);
    assertThat(cli.err()).contains("specific address");
    assertThat(
            cli.run(
                agent(
                    "mqtt://127.0.0.1:1883",
                    "127.0.0.1:0",
                    "--reliable",
                    "--retransmit-buffer",
                    "0")))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--retransmit-buffer must be at least 1");
    // secure by default: no key and no explicit opt-out is refused, as is a key too short
    assertThat(cli.run(agent("mqtt://127.0.0.1:1883", "127.0.0.1:0"))).isEqualTo(2);
    assertThat(cli.err()).contains("datagrams are authenticated").contains("--datagram-key");
    Path shortKey = dir.resolve("short.key");
    try {
      Files.writeString(shortKey, "00112233\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(
            cli.run(
                agent(
                    "mqtt://127.0.0.1:1883", "127.0.0.1:0", "--datagram-key", shortKey.toString())))
        .isEqualTo(2);
    assertThat(cli.err()).contains("4 bytes, at least 32 needed");
  }

  /**
   * {@code nps edge-agent} for edge e, with a coordinator nobody listens on (the refusals come
   * first), then {@code more}.
   */
  private static String[] agent(String broker, String listen, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "edge-agent",
                "--broker",
                broker,
                "--coordinator",
                "http://127.0.0.1:1",
                "--edge",
                "e",
                "--listen",
                listen));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  /** {@code nps edge-agent --coordinator-keys} (the coordinator unreachable), then {@code more}. */
  private static String[] keysAgent(String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("--coordinator-keys"));
    args.addAll(List.of(more));
    return agent("mqtt://127.0.0.1:1", "127.0.0.1:0", args.toArray(String[]::new));
  }

  /**
   * {@code nps edge-agent} with {@code --datagram-key key} (the coordinator unreachable), then
   * {@code more}.
   */
  private static String[] keyedAgent(String key, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("--datagram-key", key));
    args.addAll(List.of(more));
    return agent("mqtt://127.0.0.1:1", "127.0.0.1:0", args.toArray(String[]::new));
  }

  /** A datagram key file in the test's directory. */
  private String keyFile() throws java.io.IOException {
    Path k = dir.resolve("datagram.key");
    Files.writeString(k, "# test key\n" + "ab".repeat(32) + "\n");
    return k.toString();
  }

  @Test
  void keysFromTheCoordinatorAreRefusedWithOneLineWhenTheyCannotBeHad() throws Exception {
    assertThat(cli.run(keysAgent())).isEqualTo(1);
    assertThat(cli.err())
        .contains("cannot fetch the datagram keys from the coordinator")
        .contains("coordinator unreachable");
    assertThat(cli.err().strip().lines()).hasSize(1);
    assertThat(cli.run(keysAgent("--datagram-key", keyFile()))).isEqualTo(2);
    assertThat(cli.err()).contains("--coordinator-keys excludes --datagram-key");
    assertThat(cli.run(keysAgent("--key-poll-interval", "10ms"))).isEqualTo(2);
    assertThat(cli.err()).contains("--key-poll-interval must be between 100ms and 1h");
    // the coordinator hands keys out to authenticated agents only
    assertThat(
            cli.run(
                "edge-coordinator",
                "--listen",
                "127.0.0.1:0",
                "--db",
                "sqlite:" + dir.resolve("k.db"),
                "--datagram-key",
                keyFile(),
                "--exit-after-start"))
        .isEqualTo(2);
    assertThat(cli.err()).contains("start it with --auth too");
    assertThat(
            cli.run(
                "edge-coordinator",
                "--listen",
                "127.0.0.1:0",
                "--db",
                "sqlite:" + dir.resolve("k.db"),
                "--rotate-on-revoke",
                "0s",
                "--exit-after-start"))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--rotate-on-revoke");
  }

  @Test
  void anUnreachableCoordinatorIsExit1() throws Exception {
    int code = cli.run(agent("mqtt://127.0.0.1:1", "127.0.0.1:0", "--datagram-key", keyFile()));
    assertThat(code).isEqualTo(1);
    assertThat(cli.err()).contains("coordinator unreachable");
  }

  @Test
  void senderKeysArePrintedAndAnOwnKeyAgentsOptionsAreChecked() throws Exception {
    String master = keyFile();
    assertThat(
            cli.run(
                "overlay",
                "keys",
                "edge",
                "--datagram-key",
                master,
                "--edge",
                "paris",
                "--senders",
                "oslo",
                "--senders",
                "rome"))
        .as(cli.err())
        .isZero();
    java.util.HexFormat hex = java.util.HexFormat.of();
    byte[] deployment = hex.parseHex("ab".repeat(32));
    String oslo = hex.formatHex(org.netpubsub.edge.link.EdgeKeys.derive(deployment, "oslo"));
    String rome = hex.formatHex(org.netpubsub.edge.link.EdgeKeys.derive(deployment, "rome"));
    assertThat(cli.out())
        .contains("oslo " + oslo)
        .contains("rome " + rome)
        .doesNotContain("ab".repeat(32));
    Path senders = dir.resolve("senders");
    Files.writeString(senders, "oslo " + oslo + "\n");
    assertThat(cli.run(keyedAgent(master, "--sender-keys", senders.toString()))).isEqualTo(2);
    assertThat(cli.err()).contains("--sender-keys needs --own-key-only");
    assertThat(
            cli.run(
                agent(
                    "mqtt://127.0.0.1:1", "127.0.0.1:0", "--insecure-datagrams", "--own-key-only")))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--own-key-only needs --datagram-key FILE");
    // the coordinator hands out the senders' keys and revocations: no files beside it
    assertThat(
            cli.run(
                agent(
                    "mqtt://127.0.0.1:1",
                    "127.0.0.1:0",
                    "--coordinator-keys",
                    "--own-key-only",
                    "--sender-keys",
                    senders.toString())))
        .isEqualTo(2);
    assertThat(cli.err()).contains("excludes --sender-keys");
    Files.writeString(senders, "# senders\noslo " + oslo + "\nrome\n");
    assertThat(cli.run(keyedAgent(master, "--own-key-only", "--sender-keys", senders.toString())))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--sender-keys").contains("line 3").doesNotContain(oslo);
    // a good file: the agent gets as far as the (unreachable) coordinator
    Files.writeString(senders, "oslo " + oslo + "\n");
    assertThat(cli.run(keyedAgent(master, "--own-key-only", "--sender-keys", senders.toString())))
        .isEqualTo(1);
    assertThat(cli.err()).contains("coordinator unreachable");
  }
}
