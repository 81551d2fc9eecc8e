package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import picocli.CommandLine;

/** {@code nps overlay zookeeper | routing-broker | edge-broker}: start lines and bad input. */
class OverlayCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path dir;

  private int run(String... args) {
    CommandLine cl = Nps.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args);
  }

  private JsonNode firstLine() throws Exception {
    return JSON.readTree(out.toString().strip().split("\n")[0]);
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void theEmbeddedZooKeeperStartsAndSaysWhere() throws Exception {
    int port = freePort();
    int code =
        run(
            "overlay",
            "zookeeper",
            "--listen",
            "127.0.0.1:" + port,
            "--data",
            dir.resolve("zk").toString(),
            "--json",
            "--exit-after-start");
    assertThat(code).as(err.toString()).isZero();
    assertThat(firstLine().get("zookeeper").asText()).isEqualTo("127.0.0.1:" + port);
  }

  @Test
  void theJoinBenchmarkCountsItsZnodes() throws Exception {
    int code = benchJoin("--rate", "500");
    assertThat(code).as(err.toString()).isZero();
    JsonNode o = firstLine();
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
      out.getBuffer().setLength(0);
      int code = benchJoin("--model", model);
      assertThat(code).as(err.toString()).isZero();
      JsonNode o = firstLine();
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
          run(
              "overlay",
              "routing-broker",
              "--zookeeper",
              zk.connectString(),
              "--listen",
              "127.0.0.1:0",
              "--name",
              "rb1",
              "--datagram-key",
              keyFile(),
              "--json",
              "--exit-after-start");
      assertThat(code).as(err.toString()).isZero();
      assertThat(firstLine().get("kind").asText()).isEqualTo("routing-broker");
      assertThat(firstLine().get("strategy").asText()).isEqualTo("topic-count");

      out.getBuffer().setLength(0);
      code =
          run(
              "overlay",
              "edge-broker",
              "--zookeeper",
              zk.connectString(),
              "--local",
              "mqtt://127.0.0.1:" + m.port(),
              "--site",
              "paris",
              "--listen",
              "127.0.0.1:0",
              "--deadline",
              "alarms/#=50",
              "--insecure-datagrams",
              "--json",
              "--exit-after-start");
      assertThat(code).as(err.toString()).isZero();
      assertThat(firstLine().get("name").asText()).isEqualTo("paris");

      assertThat(
              run(
                  "overlay",
                  "routing-broker",
                  "--zookeeper",
                  zk.connectString(),
                  "--listen",
                  "127.0.0.1:0",
                  "--strategy",
                  "random"))
          .isEqualTo(2);
      assertThat(err.toString()).contains("unknown assignment strategy 'random'");
      assertThat(
              run(
                  "overlay",
                  "edge-broker",
                  "--zookeeper",
                  zk.connectString(),
                  "--local",
                  "mqtt://127.0.0.1:1",
                  "--site",
                  "a b",
                  "--listen",
                  "127.0.0.1:0"))
          .isEqualTo(2);
      assertThat(err.toString()).contains("'a b' is not a broker name");
      // secure by default: neither a key nor the explicit opt-out is refused, both at once too
      assertThat(
              run(
                  "overlay",
                  "routing-broker",
                  "--zookeeper",
                  zk.connectString(),
                  "--listen",
                  "127.0.0.1:0"))
          .isEqualTo(2);
      assertThat(err.toString()).contains("a routing broker needs --datagram-key FILE");
      assertThat(
              run(
                  "overlay",
                  "edge-broker",
                  "--zookeeper",
                  zk.connectString(),
                  "--local",
                  "mqtt://127.0.0.1:" + m.port(),
                  "--site",
                  "rome",
                  "--listen",
                  "127.0.0.1:0",
                  "--datagram-key",
                  keyFile(),
                  "--insecure-datagrams"))
          .isEqualTo(2);
      assertThat(err.toString()).contains("exclude each other");
      assertThat(run("overlay", "bench-multipath", "--a", "latency=3ms")).isEqualTo(2);
      assertThat(err.toString()).contains("unknown key 'latency'");
    }
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
    return run(args.toArray(String[]::new));
  }
}
