package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.http.Tokens;

class ControllerCommandTest {
  @TempDir Path dir;
  private final CliRun cli = new CliRun();

  /** Starts the controller on free ports with {@code extra} options; its one JSON line. */
  private JsonNode started(String... extra) throws Exception {
    String[] args =
        Stream.concat(
                Stream.of(
                    "controller", "--openflow", "tcp:127.0.0.1:0", "--api", "http://127.0.0.1:0"),
                Stream.concat(Stream.of(extra), Stream.of("--json", "--exit-after-start")))
            .toArray(String[]::new);
    int code = cli.run(args);
    assertThat(code).as(cli.err()).isZero();
    return new ObjectMapper().readTree(cli.out().strip());
  }

  @Test
  void startsOnFreePortsAndPrintsOneJsonLine() throws Exception {
    JsonNode o = started();
    assertThat(o.get("kind").asText()).isEqualTo("controller");
    assertThat(o.get("openflow").asText()).matches("tcp:127\\.0\\.0\\.1:[1-9][0-9]*");
    assertThat(o.get("api").asText()).matches("http://127\\.0\\.0\\.1:[1-9][0-9]*");
  }

  @Test
  void theNorthboundBusModeAndRemoteEndpointAreReported() throws Exception {
    JsonNode o = started("--nbi", "broadcast", "--nbi-remote", "127.0.0.1:0");
    assertThat(o.get("nbi").asText()).isEqualTo("broadcast");
    assertThat(o.get("nbi_remote").asText()).matches("tcp://127\\.0\\.0\\.1:[1-9][0-9]*");
  }

  @Test
  void badNorthboundOptionsAreBadInput() {
    assertThat(cli.run("controller", "--nbi", "multicast")).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--nbi must be classified or broadcast");
    assertThat(cli.run("controller", "--nbi-remote", "127.0.0.1:65535"))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("PORT..PORT+2");
  }

  @Test
  void trafficEngineeringIsReportedAndItsBadOptionsAreBadInput() throws Exception {
    JsonNode o = started("--te-link-mbps", "100");
    assertThat(o.get("traffic_engineering").asBoolean()).isTrue();
    assertThat(cli.run("controller", "--te-link-mbps", "0")).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--te-link-mbps must be positive");
    assertThat(cli.run("controller", "--te-link-mbps", "10", "--te-release", "0.9"))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--te-release");
  }

  @Test
  void reactiveForwardingRunsTheChosenAppsAndItsBadOptionsAreBadInput() throws Exception {
    JsonNode o =
        started("--forwarding", "reactive", "--apps", "simple+3red", "--nbi-topics", "bytes");
    assertThat(o.get("forwarding").asText()).isEqualTo("reactive");
    assertThat(cli.run("controller", "--forwarding", "flooding")).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.run("controller", "--apps", "shortest")).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("need --forwarding reactive");
    assertThat(cli.err()).contains("--forwarding must be routed or reactive");
    assertThat(cli.run("controller", "--forwarding", "reactive", "--nbi-topics", "regex"))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.run("controller", "--forwarding", "reactive", "--apps", "ryu"))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("apps start with simple");
  }

  @Test
  void badAddressesAreBadInput() {
    assertThat(cli.run("controller", "--openflow", "udp:1.2.3.4:6653"))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("tcp:HOST:PORT");
    assertThat(cli.run("controller", "--api", "ftp://x:1")).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.run("controller", "--openflow", "tcp:h:99999")).isEqualTo(Nps.EXIT_BAD_INPUT);
  }

  @Test
  void aSchemaTurnsOnPubSub() throws Exception {
    assertThat(started("--schema", "../examples/schemas/quotes.yaml").get("pubsub").asBoolean())
        .isTrue();
  }

  @Test
  void aNegativeWarmUpIsBadInput() {
    String[] base = {"controller", "--openflow", "tcp:127.0.0.1:0", "--api", "http://127.0.0.1:0"};
    assertThat(cli.run(concat(base, "--warm-up", "-1"))).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--warm-up");
  }

  @Test
  void badPubSubOptionsAreBadInput() {
    String[] base = {"controller", "--openflow", "tcp:127.0.0.1:0", "--api", "http://127.0.0.1:0"};
    assertThat(cli.run(concat(base, "--schema", "no-such.yaml"))).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("no such file");
    assertThat(
            cli.run(
                concat(base, "--schema", "../examples/schemas/quotes.yaml", "--dz-length", "200")))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--dz-length");
    assertThat(
            cli.run(
                concat(
                    base, "--schema", "../examples/schemas/quotes.yaml", "--dimensions", "nope")))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
  }

  @Test
  void aClusterMemberJoinsThroughZooKeeperAndReportsItself() throws Exception {
    try (TestingServer zk = new TestingServer()) {
      JsonNode o =
          started(
              "--schema",
              "../examples/schemas/quotes.yaml",
              "--partitions",
              "4",
              "--cluster",
              zk.getConnectString(),
              "--member",
              "m1");
      assertThat(o.get("cluster").asText()).isEqualTo(zk.getConnectString());
      assertThat(o.get("member").asText()).isEqualTo("m1");
    }
  }

  @Test
  void badClusterOptionsAreBadInput() {
    String[] base = {"controller", "--openflow", "tcp:127.0.0.1:0", "--api", "http://127.0.0.1:0"};
    String schema = "../examples/schemas/quotes.yaml";
    assertThat(cli.run(concat(base, "--member", "m1"))).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--member applies with --cluster");
    assertThat(cli.run(concat(base, "--cluster", "127.0.0.1:1"))).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--cluster needs --schema");
    assertThat(
            cli.run(
                concat(
                    base, "--schema", schema, "--cluster", "127.0.0.1:1", "--configurators", "2")))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--configurators does not apply with --cluster");
    assertThat(
            cli.run(
                concat(
                    base,
                    "--schema",
                    schema,
                    "--cluster",
                    "127.0.0.1:1",
                    "--cluster-session-timeout",
                    "soon")))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
  }

  @Test
  void aPleromaStoreWrittenUnderAnotherIndexStopsTheStartNamingTheField() {
    String[] base = {
      "controller",
      "--openflow",
      "tcp:127.0.0.1:0",
      "--api",
      "http://127.0.0.1:0",
      "--schema",
      "../examples/schemas/quotes.yaml",
      "--store",
      "sqlite:" + dir.resolve("pleroma.db"),
      "--warm-up",
      "0"
    };
    assertThat(cli.run(concat(base, "--exit-after-start"))).isZero();
    assertThat(cli.run(concat(base, "--dz-length", "9", "--exit-after-start")))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("field index: holds requests of").doesNotContain("\tat ");
    assertThat(cli.run(concat(base, "--configurators", "2"))).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--store applies to one controller process");
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void aTokenComesWithTheHashLineThatAdmitsIt() {
    assertThat(cli.run("auth", "token")).isZero();
    String[] lines = cli.out().strip().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).matches("[A-Za-z0-9_-]{43}");
    assertThat(lines[1].strip()).isEqualTo("token_sha256: " + Tokens.sha256(lines[0]));
  }

  @Test
  void aBadPrincipalsFileIsOneLineAndBadInput() throws Exception {
    Path f = dir.resolve("p.yaml");
    Files.writeString(
        f,
        "principals:\n  - name: ann\n    token_sha256: "
            + Tokens.sha256("x")
            + "\n    subscribe: 'price >'\n");
    int code =
        cli.run(
            "controller",
            "--openflow",
            "tcp:127.0.0.1:0",
            "--api",
            "http://127.0.0.1:0",
            "--schema",
            "../examples/schemas/quotes.yaml",
            "--auth",
            f.toString(),
            "--exit-after-start");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("ann: subscribe:").doesNotContain("\tat ");
  }
}
