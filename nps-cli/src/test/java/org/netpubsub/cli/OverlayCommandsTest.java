package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;

/** {@code nps overlay zookeeper | routing-broker | edge-broker}: start lines and bad input. */
class OverlayCommandsTest {
  private final CliRun cli = new CliRun();
  @TempDir Path dir;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void theEmbeddedZooKeeperStartsAndSaysWhere() throws Exception {
    int port = freePort();
    int code =
        cli.run(
            "overlay",
            "zookeeper",
            "--listen",
            "127.0.0.1:" + port,
            "--data",
            dir.resolve("zk").toString(),
            "--json",
            "--exit-after-start");
    assertThat(code).as(cli.err()).isZero();
    assertThat(cli.lines().get(0).get("zookeeper").asText()).isEqualTo("127.0.0.1:" + port);
  }

  @Test
  void theJoinBenchmarkCountsItsZnodes() throws Exception {
    int code = benchJoin("--rate", "500");
    assertThat(code).as(cli.err()).isZero();
    JsonNode o = cli.lines().get(0);
    assertThat(o.get("subscribers").asInt()).isEqualTo(50);
    // 50 entries and a sub container per topic (the topics exist beforehand, with a publisher)
    assertThat(o.get("znodes").asLong()).isEqualTo(50 + 10);
    assertThat(o.get("p99_ms").asDouble()).isPositive();
    assertThat(o.get("server_reads").asLong()).isPositive(); // the caches read what changed
    // paced at 500/s: 50 joins take at least 0.098 s; the leader assigned all 10 topics
    assertThat(o.get("seconds").asDouble()).isGreaterThanOrEqualTo(0.098);
    assertThat(o.get("assigned_seconds").asDouble()).isPositive();
    assertThat(o.get("server_updates").asLong()).isGreaterThanOrEqualTo(50 + 10);
  }

  @Test
  void theJoinBenchmarkRunsTheBatchedAndEdgeModels() throws Exception {
    for (String model : List.of("batched", "edge")) {
      cli.clear();
      int code = benchJoin("--model", model);
      assertThat(code).as(cli.err()).isZero();
      JsonNode o = cli.lines().get(0);
      assertThat(o.get("model").asText()).isEqualTo(model);
      // batched: the subscribers' 50 entries; edge: one per topic and edge (2 x 10)
      long entries = model.equals("batched") ? 50 : 20;
      assertThat(o.get("entries").asLong()).isEqualTo(entries);
      assertThat(o.get("znodes").asLong()).isEqualTo(entries + 10);
      // at most a request per entry and the 10 `sub` containers per writer (how far the writers
      // batch depends on timing; EntryWriterTest checks that a burst goes out in a few multis)
      assertThat(o.get("requests").asLong()).isPositive().isLessThanOrEqualTo(entries + 2 * 10);
      assertThat(o.get("p99_ms").asDouble()).isGreaterThanOrEqualTo(o.get("p50_ms").asDouble());
    }
  }

  @Test
  void brokersStartAgainstZooKeeperAndBadInputExits2() throws Exception {
    try (EmbeddedZooKeeper zk =
            EmbeddedZooKeeper.start(
                new InetSocketAddress("127.0.0.1", freePort()), dir.resolve("zk"), 100);
        Mosquitto m = Mosquitto.start(dir)) {
      int code =
          cli.run(
              routingBroker(
                  zk,
                  "--name",
                  "rb1",
                  "--datagram-key",
                  keyFile(),
                  "--json",
                  "--exit-after-start"));
      assertThat(code).as(cli.err()).isZero();
      assertThat(cli.lines().get(0).get("kind").asText()).isEqualTo("routing-broker");
      assertThat(cli.lines().get(0).get("strategy").asText()).isEqualTo("topic-count");

      cli.clear();
      code =
          cli.run(
              edgeBroker(
                  zk,
                  "mqtt://127.0.0.1:" + m.port(),
                  "paris",
                  "--deadline",
                  "alarms/#=50",
                  "--insecure-datagrams",
                  "--json",
                  "--exit-after-start"));
      assertThat(code).as(cli.err()).isZero();
      assertThat(cli.lines().get(0).get("name").asText()).isEqualTo("paris");

      assertThat(cli.run(routingBroker(zk, "--strategy", "random"))).isEqualTo(2);
      assertThat(cli.err()).contains("unknown assignment strategy 'random'");
      assertThat(cli.run(edgeBroker(zk, "mqtt://127.0.0.1:1", "a b"))).isEqualTo(2);
      assertThat(cli.err()).contains("'a b' is not a broker name");
      // secure by default: neither a key nor the explicit opt-out is refused, both at once too
      assertThat(cli.run(routingBroker(zk))).isEqualTo(2);
      assertThat(cli.err()).contains("a routing broker needs --datagram-key FILE");
      assertThat(
              cli.run(
                  edgeBroker(
                      zk,
                      "mqtt://127.0.0.1:" + m.port(),
                      "rome",
                      "--datagram-key",
                      keyFile(),
                      "--insecure-datagrams")))
          .isEqualTo(2);
      assertThat(cli.err()).contains("exclude each other");
      assertThat(cli.run("overlay", "bench-multipath", "--a", "latency=3ms")).isEqualTo(2);
      assertThat(cli.err()).contains("unknown key 'latency'");
      assertThat(cli.run(routingBroker(zk, "--insecure-datagrams", "--zookeeper-timeout", "0")))
          .isEqualTo(2);
      assertThat(cli.err()).contains("--zookeeper-timeout must be positive");
      assertThat(
              cli.run(
                  edgeBroker(
                      zk,
                      "mqtt://127.0.0.1:" + m.port(),
                      "rome",
                      "--insecure-datagrams",
                      "--zookeeper-timeout",
                      "soon")))
          .isEqualTo(2);
      assertThat(cli.err()).contains("--zookeeper-timeout: 'soon' is not a duration");
    }
  }

  @Test
  void keysRotatedInZooKeeperAreTakenByBrokersWithTheCredentials() throws Exception {
    Path auth = dir.resolve("zk.auth");
    java.nio.file.Files.writeString(auth, "overlay:s3cret-for-tests\n");
    try (EmbeddedZooKeeper zk =
        EmbeddedZooKeeper.start(
            new InetSocketAddress("127.0.0.1", freePort()), dir.resolve("zk"), 100)) {
      String a = auth.toString();
      // no key znode yet: a broker without a key file says what to run
      assertThat(cli.run(routingBroker(zk, "--name", "rb1", "--zookeeper-auth", a))).isEqualTo(2);
      assertThat(cli.err()).contains("run nps overlay keys rotate first");

      String[] rotate = {
        "overlay", "keys", "rotate", "--zookeeper", zk.connectString(), "--zookeeper-auth", a
      };
      cli.clear();
      assertThat(cli.run(concat(rotate, "--json"))).as(cli.err()).isZero();
      assertThat(cli.lines().get(0).get("signing_key_id").asLong()).isEqualTo(1);
      cli.clear();
      int code =
          cli.run(
              routingBroker(
                  zk, "--name", "rb1", "--zookeeper-auth", a, "--json", "--exit-after-start"));
      assertThat(code).as(cli.err()).isZero();
      assertThat(cli.lines().get(0).get("kind").asText()).isEqualTo("routing-broker");
      cli.clear();
      assertThat(cli.run(concat(rotate, "--grace", "5s"))).as(cli.err()).isZero();
      assertThat(cli.out()).contains("datagram key 2 signs; key 1 is accepted for 5s");
      assertThat(cli.out() + cli.err()).doesNotContainPattern("[0-9a-f]{64}"); // no key printed
      assertThat(cli.run(concat(rotate, "--grace", "-1s"))).isEqualTo(2);
      assertThat(cli.err()).contains("--grace");
      assertThat(cli.run(concat(rotate, "--zookeeper-timeout", "0ms"))).isEqualTo(2);
      assertThat(cli.err()).contains("--zookeeper-timeout must be positive");
    }
  }

  @Test
  void anEdgesOwnKeyFileIsDerivedAndABadRevocationFileExits2() throws Exception {
    String master = keyFile();
    assertThat(cli.run("overlay", "keys", "edge", "--datagram-key", master, "--edge", "paris"))
        .as(cli.err())
        .isZero();
    String derived =
        java.util.HexFormat.of()
            .formatHex(
                org.netpubsub.edge.link.EdgeKeys.derive(
                    java.util.HexFormat.of().parseHex("cd".repeat(32)), "paris"));
    assertThat(cli.out()).contains(derived).doesNotContain("cd".repeat(32));
    assertThat(cli.run("overlay", "keys", "edge", "--datagram-key", master, "--edge", "a/b"))
        .isEqualTo(2);
    Path revoked = dir.resolve("revoked");
    java.nio.file.Files.writeString(revoked, "# revoked\nmallory\nnot a name\n");
    String[] rb =
        overlay(
            List.of("routing-broker", "--zookeeper", "127.0.0.1:1", "--listen", "127.0.0.1:0"),
            "--datagram-key",
            master,
            "--revoked-edges",
            revoked.toString());
    assertThat(cli.run(rb)).isEqualTo(2);
    assertThat(cli.err()).contains("--revoked-edges").contains("line 3");
    // the join bench's embedded ZooKeeper has credentials of its own; a file is for --zookeeper
    assertThat(benchJoin("--zookeeper-auth", master)).isEqualTo(2);
    assertThat(cli.err()).contains("--zookeeper-auth applies with --zookeeper");
  }

  @Test
  void pairKeysArePrintedAndAnOwnKeyEdgeBrokersKeyOptionsAreChecked() throws Exception {
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
                "--peer",
                "oslo"))
        .as(cli.err())
        .isZero();
    String pair =
        java.util.HexFormat.of()
            .formatHex(
                org.netpubsub.edge.link.EdgeKeys.pair(
                    java.util.HexFormat.of().parseHex("cd".repeat(32)), "oslo", "paris"));
    assertThat(cli.out()).contains("oslo " + pair).doesNotContain("cd".repeat(32));
    Path pairs = dir.resolve("pairs");
    java.nio.file.Files.writeString(pairs, "oslo " + pair + "\n");
    List<String> edge =
        List.of(
            "edge-broker",
            "--zookeeper",
            "127.0.0.1:1",
            "--local",
            "mqtt://127.0.0.1:1",
            "--site",
            "paris",
            "--listen",
            "127.0.0.1:0");
    assertThat(cli.run(overlay(edge, "--datagram-key", master, "--pair-keys", pairs.toString())))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--pair-keys applies with --own-key-only");
    assertThat(cli.run(overlay(edge, "--insecure-datagrams", "--own-key-only"))).isEqualTo(2);
    assertThat(cli.err()).contains("--own-key-only needs --datagram-key FILE");
    java.nio.file.Files.writeString(pairs, "oslo\n");
    String[] bad =
        overlay(edge, "--datagram-key", master, "--own-key-only", "--pair-keys", pairs.toString());
    assertThat(cli.run(bad)).isEqualTo(2);
    assertThat(cli.err()).contains("--pair-keys").contains("line 1");
  }

  private static String[] concat(String[] a, String... b) {
    List<String> all = new java.util.ArrayList<>(List.of(a));
    all.addAll(List.of(b));
    return all.toArray(String[]::new);
  }

  /**
   * {@code nps overlay routing-broker} on {@code zk}, listening on a free port, then {@code more}.
   */
  private static String[] routingBroker(EmbeddedZooKeeper zk, String... more) {
    return overlay(
        List.of("routing-broker", "--zookeeper", zk.connectString(), "--listen", "127.0.0.1:0"),
        more);
  }

  /**
   * {@code nps overlay edge-broker} of {@code site} on {@code zk} and the MQTT broker {@code
   * local}.
   */
  private static String[] edgeBroker(
      EmbeddedZooKeeper zk, String local, String site, String... more) {
    return overlay(
        List.of(
            "edge-broker",
            "--zookeeper",
            zk.connectString(),
            "--local",
            local,
            "--site",
            site,
            "--listen",
            "127.0.0.1:0"),
        more);
  }

  private static String[] overlay(List<String> args, String... more) {
    List<String> all = new java.util.ArrayList<>(List.of("overlay"));
    all.addAll(args);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** A datagram key file in the test's directory. */
  private String keyFile() throws java.io.IOException {
    Path k = dir.resolve("datagram.key");
    java.nio.file.Files.writeString(k, "cd".repeat(32) + "\n");
    return k.toString();
  }

  /** 50 subscribers of 10 topics at 2 edges with one routing broker, plus {@code extra}. */
  private int benchJoin(String... extra) throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "overlay",
                "bench-join",
                "--subscribers",
                "50",
                "--edges",
                "2",
                "--topics",
                "10",
                "--routing-brokers",
                "1",
                "--json"));
    args.addAll(List.of(extra));
    return cli.run(args.toArray(String[]::new));
  }
}
