package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import org.netpubsub.edge.overlay.Zk;
import org.netpubsub.edge.overlay.ZkAuth;
import org.netpubsub.edge.overlay.ZnodePaths;

/**
 * {@code nps overlay keys revoke | unrevoke}: its refusals (no credentials, bad names, names with
 * {@code --list} or {@code --all}), the znode it writes, and brokers refusing to start on a bad
 * one.
 */
class OverlayRevokeCommandTest {
  private static final Duration T = Duration.ofSeconds(20);
  private final CliRun cli = new CliRun();
  @TempDir Path dir;

  @Test
  void refusalsSayWhatIsWrongInOneLineBeforeConnecting() {
    // 127.0.0.1:1 is never reached: every refusal comes first
    String[] none = {"overlay", "keys", "revoke", "--zookeeper", "127.0.0.1:1", "mallory"};
    assertThat(cli.run(none)).isEqualTo(2);
    assertThat(cli.err().strip())
        .startsWith("error: nps overlay keys revoke needs --zookeeper-auth FILE")
        .contains("--revoked-edges")
        .doesNotContain("\n");
    cli.clear();
    assertThat(cli.run("overlay", "keys", "unrevoke", "--zookeeper", "127.0.0.1:1", "mallory"))
        .isEqualTo(2);
    assertThat(cli.err()).contains("nps overlay keys unrevoke needs --zookeeper-auth FILE");
    String auth = dir.resolve("zk.auth").toString();
    List<List<String>> bad =
        List.of(
            List.of("revoke", "a/b"),
            List.of("revoke"),
            List.of("revoke", "--list", "mallory"),
            List.of("unrevoke"),
            List.of("unrevoke", "--all", "mallory"));
    List<String> expected =
        List.of(
            "NAME: 'a/b' is not a broker name",
            "NAME: name an edge to revoke (or --list)",
            "--list takes no NAME",
            "NAME: name an edge to accept again (or --all)",
            "--all takes no NAME");
    for (int i = 0; i < bad.size(); i++) {
      cli.clear();
      List<String> args =
          new ArrayList<>(
              List.of("overlay", "keys", bad.get(i).get(0), "--zookeeper", "127.0.0.1:1"));
      args.addAll(List.of("--zookeeper-auth", auth));
      args.addAll(bad.get(i).subList(1, bad.get(i).size()));
      assertThat(cli.run(args.toArray(String[]::new))).as(args.toString()).isEqualTo(2);
      assertThat(cli.err()).as(args.toString()).contains(expected.get(i));
    }
  }

  @Test
  void theZnodeIsWrittenReadAndLiftedAndABadOneStopsABrokersStart() throws Exception {
    Path auth = dir.resolve("zk.auth");
    Files.writeString(auth, "overlay:s3cret-for-tests\n");
    Path key = dir.resolve("datagram.key");
    Files.writeString(key, "cd".repeat(32) + "\n");
    try (EmbeddedZooKeeper zk =
        EmbeddedZooKeeper.start(
            new InetSocketAddress("127.0.0.1", freePort()), dir.resolve("zk"), 100)) {
      String[] keys = {"--zookeeper", zk.connectString(), "--zookeeper-auth", auth.toString()};
      assertThat(cli.run(keysCommand("revoke", keys, "rome", "mallory"))).as(cli.err()).isZero();
      assertThat(cli.out())
          .contains("revoked mallory, rome")
          .contains("2 edges revoked in /keys/revoked: mallory, rome");
      cli.clear();
      assertThat(cli.run(keysCommand("unrevoke", keys, "rome", "--json"))).as(cli.err()).isZero();
      assertThat(cli.lines().get(0).get("revoked_edges").toString()).isEqualTo("[\"mallory\"]");
      cli.clear();
      assertThat(cli.run(keysCommand("revoke", keys, "--list"))).as(cli.err()).isZero();
      assertThat(cli.out()).contains("1 edges revoked in /keys/revoked: mallory");

      // a broker with the credentials refuses the znode's edges and its file's (its stats say how
      // many: the union, mallory in both); a bad znode stops the start
      String[] rb = {
        "overlay",
        "routing-broker",
        "--zookeeper",
        zk.connectString(),
        "--listen",
        "127.0.0.1:0",
        "--zookeeper-auth",
        auth.toString(),
        "--datagram-key",
        key.toString(),
        "--exit-after-start"
      };
      Path file = dir.resolve("revoked");
      Files.writeString(file, "x\nmallory\n");
      cli.clear();
      assertThat(cli.run(concat(rb, "--revoked-edges", file.toString(), "--json")))
          .as(cli.err())
          .isZero();
      assertThat(stats().get("edges_revoked").asLong()).isEqualTo(2);
      assertThat(stats().get("revoked_znode_updates").asLong()).isEqualTo(1);
      try (Mosquitto m = Mosquitto.start(dir)) {
        String[] edge = {
          "overlay",
          "edge-broker",
          "--zookeeper",
          zk.connectString(),
          "--listen",
          "127.0.0.1:0",
          "--local",
          "mqtt://127.0.0.1:" + m.port(),
          "--site",
          "paris",
          "--zookeeper-auth",
          auth.toString(),
          "--datagram-key",
          key.toString(),
          "--exit-after-start",
          "--json"
        };
        cli.clear();
        assertThat(cli.run(edge)).as(cli.err()).isZero();
        assertThat(stats().get("edges_revoked").asLong()).isEqualTo(1); // the znode's only
      }
      try (CuratorFramework c =
          Zk.connected(zk.connectString(), T, T, new ZkAuth("overlay", "s3cret-for-tests"))) {
        c.setData()
            .forPath(
                ZnodePaths.REVOKED_EDGES,
                "{\"revoked_edges\":[\"ok\",\"a b\"]}".getBytes(StandardCharsets.UTF_8));
      }
      cli.clear();
      assertThat(cli.run(rb)).isEqualTo(2);
      assertThat(cli.err()).contains("/keys/revoked: 'revoked_edges[1]' is not an edge name");
      cli.clear();
      assertThat(cli.run(keysCommand("revoke", keys, "x"))).isEqualTo(2);
      assertThat(cli.err()).contains("'revoked_edges[1]'").contains("unrevoke --all");
      cli.clear();
      assertThat(cli.run(keysCommand("unrevoke", keys, "--all"))).as(cli.err()).isZero();
      assertThat(cli.out()).contains("0 edges revoked");
      cli.clear();
      assertThat(cli.run(rb)).as(cli.err()).isZero();
    }
  }

  /** The counters of the last stats line a broker printed with --json. */
  private com.fasterxml.jackson.databind.JsonNode stats() throws java.io.IOException {
    List<com.fasterxml.jackson.databind.JsonNode> lines = cli.lines();
    return lines.get(lines.size() - 1).get("counters");
  }

  private static String[] concat(String[] a, String... b) {
    List<String> all = new ArrayList<>(List.of(a));
    all.addAll(List.of(b));
    return all.toArray(String[]::new);
  }

  private static String[] keysCommand(String command, String[] keys, String... more) {
    List<String> all = new ArrayList<>(List.of("overlay", "keys", command));
    all.addAll(List.of(keys));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
