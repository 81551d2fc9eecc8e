package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.client.StubController;
import org.netpubsub.client.TestSchemas;

/**
 * {@code nps sub} and {@code nps pub} against the stub controller, on loopback: {@code --to} stands
 * in for the last switch's rewrite of the content address.
 */
class PubSubCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private StubController stub;

  @BeforeEach
  void start() throws Exception {
    stub = StubController.start(TestSchemas.quotes(), TestSchemas.INDEX_LENGTH);
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  /** Starts {@code nps sub --json …} and returns its port once it printed "subscribed". */
  private int subscribed(CliRun sub) throws Exception {
    Poll.until("the subscribed line", TIMEOUT, () -> sub.out().contains("subscribed"));
    JsonNode first = sub.lines().get(0);
    assertThat(first.get("kind").asText()).isEqualTo("subscribed");
    assertThat(first.get("id").asText()).startsWith("s-");
    return first.get("port").asInt();
  }

  @Test
  void pubToSubEndToEnd() throws Exception {
    CliRun sub = new CliRun();
    CompletableFuture<Integer> subExit =
        sub.background(
            "sub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--count",
            "3",
            "--stats",
            "--json",
            "price > 500");
    int port = subscribed(sub);
    CliRun pub = new CliRun();
    // 2 events below the filter (false positives at the subscriber), then 3 matching ones.
    int code =
        pub.run(
            "pub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--to",
            "[::1]:" + port,
            "--count",
            "2",
            "--json",
            "symbol=ACME",
            "price=100",
            "volume=1");
    assertThat(code).as(pub.err()).isZero();
    code =
        pub.run(
            "pub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--to",
            "[::1]:" + port,
            "--count",
            "3",
            "--rate",
            "200",
            "--json",
            "symbol=ACME",
            "price=600",
            "volume=7");
    assertThat(code).as(pub.err()).isZero();
    assertThat(subExit.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as(sub.err()).isZero();

    List<JsonNode> lines = sub.lines();
    assertThat(lines).hasSize(5); // subscribed, 3 deliveries, stats
    for (int i = 1; i <= 3; i++) {
      JsonNode d = lines.get(i);
      assertThat(d.get("kind").asText()).isEqualTo("delivery");
      assertThat(d.get("attributes").get("price").asLong()).isEqualTo(600);
      assertThat(d.get("attributes").get("symbol").asText()).isEqualTo("ACME");
      assertThat(d.get("sequence").asLong()).isEqualTo(i);
      assertThat(d.get("publisher").isNumber()).isTrue();
      assertThat(d.get("latency_us").asDouble()).isPositive();
      assertThat(d.has("payload")).isFalse();
    }
    JsonNode stats = lines.get(4);
    assertThat(stats.get("kind").asText()).isEqualTo("stats");
    assertThat(stats.get("received").asLong()).isEqualTo(5);
    assertThat(stats.get("delivered").asLong()).isEqualTo(3);
    assertThat(stats.get("false_positives").asLong()).isEqualTo(2);
    assertThat(stats.get("malformed").asLong()).isZero();
    // the last report, sent when it stopped: the controller sees the false positives too
    JsonNode reported = stub.stats().get(lines.get(0).get("id").asText());
    assertThat(reported).isNotNull();
    assertThat(reported.get("received").asLong()).isEqualTo(5);
    assertThat(reported.get("false_positives").asLong()).isEqualTo(2);

    List<JsonNode> summaries = pub.lines(); // advertised, published; twice
    assertThat(summaries).hasSize(4);
    assertThat(summaries.get(2).get("kind").asText()).isEqualTo("advertised");
    assertThat(summaries.get(2).get("id").asText()).startsWith("a-");
    assertThat(summaries.get(2).get("response_ms").asDouble()).isNotNegative();
    JsonNode last = summaries.get(3);
    assertThat(last.get("kind").asText()).isEqualTo("published");
    assertThat(last.get("events").asLong()).isEqualTo(3);
    assertThat(last.get("advertisement").asText()).startsWith("a-");
    // 3 events at 200/s: the last is due 10 ms after the first.
    assertThat(last.get("seconds").asDouble()).isGreaterThanOrEqualTo(0.01);
    // The linger after the last event (200 ms by default) is closing, not sending.
    assertThat(last.get("close_seconds").asDouble()).isGreaterThanOrEqualTo(0.2);
    // Everything was withdrawn again.
    assertThat(stub.subscriptions()).isEmpty();
    assertThat(stub.advertisements()).isEmpty();
  }

  @Test
  void pubFromAJsonLinesFile(@TempDir Path dir) throws Exception {
    Path events = dir.resolve("events.jsonl");
    Files.writeString(
        events,
        """
        {"kind":"filter","filter":"price < 5","host":"h3"}
        {"kind":"event","attributes":{"symbol":"A","price":1,"volume":2},"payload":"AQI="}

        {"attributes":{"symbol":"B","price":3,"volume":4}}
        """);
    CliRun sub = new CliRun();
    CompletableFuture<Integer> subExit =
        sub.background(
            "sub", "--controller", stub.url(), "--host", "::1", "--count", "2", "--json", "true");
    int port = subscribed(sub);
    CliRun pub = new CliRun();
    int code =
        pub.run(
            "pub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--to",
            "[::1]:" + port,
            "--advertise",
            "price < 10",
            "--from",
            events.toString());
    assertThat(code).as(pub.err()).isZero();
    assertThat(pub.out()).startsWith("published 2 events in ");
    assertThat(subExit.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isZero();
    List<JsonNode> lines = sub.lines();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(1).get("attributes").get("symbol").asText()).isEqualTo("A");
    assertThat(lines.get(1).get("payload").asText()).isEqualTo("AQI=");
    assertThat(lines.get(2).get("attributes").get("symbol").asText()).isEqualTo("B");
  }

  @Test
  void summaryPrintsProgressAndOneLatencyLineInsteadOfALinePerDelivery() throws Exception {
    CliRun sub = new CliRun();
    CompletableFuture<Integer> subExit =
        sub.background(
            "sub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--count",
            "3",
            "--summary",
            "--warmup",
            "1",
            "--jit-warmup", // the receive path run on synthetic events first: none of them counted
            "500",
            "--stats",
            "--json",
            "price > 500");
    // the first test of the class may run first: its JVM loads the HTTP client's classes then
    Poll.until("the subscribed line", Duration.ofSeconds(60), () -> sub.out().contains("subscr"));
    int port = subscribed(sub);
    CliRun pub = new CliRun();
    int code =
        pub.run(
            "pub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--to",
            "[::1]:" + port,
            "--count",
            "3",
            "--rate",
            "20",
            "--json",
            "symbol=ACME",
            "price=600",
            "volume=7");
    assertThat(code).as(pub.err()).isZero();
    assertThat(subExit.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as(sub.err()).isZero();

    List<JsonNode> lines = sub.lines();
    assertThat(lines).noneMatch(l -> l.get("kind").asText().equals("delivery"));
    // 3 events at 20/s take 100 ms: at least one progress line at 250 ms intervals, and the last
    JsonNode progress = lines.get(lines.size() - 3);
    assertThat(progress.get("kind").asText()).isEqualTo("progress");
    assertThat(progress.get("delivered").asLong()).isEqualTo(3);
    assertThat(progress.get("received").asLong()).isEqualTo(3);
    JsonNode latency = lines.get(lines.size() - 2);
    assertThat(latency.get("kind").asText()).isEqualTo("latency");
    assertThat(JSON.convertValue(latency.get("sequences"), long[].class)).containsExactly(1, 2, 3);
    assertThat(latency.get("max_by_tenth")).hasSize(10);
    Histogram h =
        Histogram.decodeFromCompressedByteBuffer(
            ByteBuffer.wrap(Base64.getDecoder().decode(latency.get("histogram").asText())), 0);
    assertThat(h.getTotalCount()).isEqualTo(2); // sequence 1 is the warm-up
    assertThat(lines.get(lines.size() - 1).get("delivered").asLong()).isEqualTo(3);
  }

  @Test
  void subStopsAfterDurationAndWithoutJsonAnnouncesOnStderr() throws Exception {
    CliRun sub = new CliRun();
    int code =
        sub.run(
            "sub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--duration",
            "50ms",
            "--stats",
            "volume in [1, 5]");
    assertThat(code).as(sub.err()).isZero();
    assertThat(JSON.readTree(sub.err().strip()).get("kind").asText()).isEqualTo("subscribed");
    JsonNode stats = JSON.readTree(sub.out().strip());
    assertThat(stats.get("kind").asText()).isEqualTo("stats");
    assertThat(stats.get("delivered").asLong()).isZero();
    assertThat(stub.subscriptions()).isEmpty();
    assertThat(stub.requests()).contains("DELETE /v1/subscriptions/s-1");
  }

  @Test
  void anEventOutsideTheAdvertisementIsBadInputAndTheAdvertisementIsWithdrawn() {
    CliRun pub = new CliRun();
    int code =
        pub.run(
            "pub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--to",
            "[::1]:9",
            "--advertise",
            "price < 10",
            "symbol=A",
            "price=500",
            "volume=1");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(pub.err()).contains("outside the advertisement");
    assertThat(stub.advertisements()).isEmpty();
  }

  @Test
  void controllerRefusalsExit1WithTheReason() {
    stub.failNext(503, "the controller has no spanning tree yet");
    CliRun sub = new CliRun();
    int code = sub.run("sub", "--controller", stub.url(), "--host", "::1", "true");
    assertThat(code).isEqualTo(1);
    assertThat(sub.err()).contains("503").contains("no spanning tree yet");
  }

  @Test
  void badArgumentsExit2BeforeAnythingIsRegistered() {
    String url = stub.url();
    String[][] cases = {
      {"pub", "--controller", url, "--host", "::1"},
      {"pub", "--controller", url, "--host", "::1", "--from", "x.jsonl", "price=1"},
      {
        "pub",
        "--controller",
        url,
        "--host",
        "::1",
        "--rate",
        "-1",
        "symbol=A",
        "price=1",
        "volume=1"
      },
      {
        "pub",
        "--controller",
        url,
        "--host",
        "::1",
        "--count",
        "0",
        "symbol=A",
        "price=1",
        "volume=1"
      },
      {"pub", "--controller", url, "--host", "::1", "symbol=A", "price=1"},
      {
        "pub",
        "--controller",
        url,
        "--host",
        "::1",
        "symbol=A",
        "price=1",
        "volume=1",
        "--to",
        "::1:9"
      },
      {"pub", "--controller", url, "--host", "::1", "--from", "/nonexistent/events.jsonl"},
      {"pub", "--controller", url, "--host", "10.0.0.1", "symbol=A", "price=1", "volume=1"},
      {"pub", "--controller", "localhost:8080", "symbol=A", "price=1", "volume=1"},
      {
        "pub",
        "--controller",
        url,
        "--host",
        "::1",
        "--advertise",
        "prize < 3",
        "symbol=A",
        "price=1",
        "volume=1"
      },
      {"sub", "--controller", url, "--host", "::1", "price >"},
      {"sub", "--controller", url, "--host", "::1", "--port", "70000", "true"},
      {"sub", "--controller", url, "--host", "::1", "--duration", "soon", "true"},
      {"sub", "--controller", url, "--host", "::1", "--count", "0", "true"},
      {"sub", "--controller", url, "--host", "::1", "--warmup", "5", "true"},
      {"sub", "--controller", url, "--host", "::1", "--summary", "--warmup", "-1", "true"},
      {"sub", "--controller", url, "--host", "::1", "--jit-warmup", "-1", "true"},
      {"sub", "--controller", url, "--host", "::1", "--report-interval", "soon", "true"},
      {"sub", "--controller", url, "--host", "::1"},
      {"sub", "--host", "::1", "true"},
    };
    for (String[] args : cases) {
      CliRun r = new CliRun();
      assertThat(r.run(args)).as(String.join(" ", args) + "\n" + r.err()).isEqualTo(2);
      assertThat(r.err()).as(String.join(" ", args)).isNotBlank();
    }
    assertThat(stub.advertisements()).isEmpty();
    assertThat(stub.subscriptions()).isEmpty();
  }

  @Test
  void filterErrorsShowACaret() {
    CliRun sub = new CliRun();
    assertThat(sub.run("sub", "--controller", stub.url(), "--host", "::1", "price >> 3"))
        .isEqualTo(2);
    assertThat(sub.err()).contains("^");
  }

  @Test
  void onlyEventLinesArePublished() {
    assertThat(PubCommand.isOtherKind("{\"kind\":\"filter\",\"filter\":\"x > 1\"}")).isTrue();
    assertThat(PubCommand.isOtherKind(" { \"kind\" : \"stats\" }")).isTrue();
    assertThat(PubCommand.isOtherKind("{\"kind\":\"event\",\"attributes\":{}}")).isFalse();
    assertThat(PubCommand.isOtherKind("{\"attributes\":{},\"kind\":\"filter\"}")).isFalse();
  }

  @Test
  void aBadLineNamesItsNumber(@TempDir Path dir) throws Exception {
    Path events = dir.resolve("bad.jsonl");
    Files.writeString(
        events,
        "{\"attributes\":{\"symbol\":\"A\",\"price\":1,\"volume\":2}}\n{\"attributes\":{}}\n");
    CliRun pub = new CliRun();
    int code =
        pub.run(
            "pub",
            "--controller",
            stub.url(),
            "--host",
            "::1",
            "--to",
            "[::1]:9",
            "--from",
            events.toString());
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(pub.err()).contains("line 2").contains("missing attributes");
    assertThat(stub.advertisements()).isEmpty();
  }
}
