package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.broker.TestClient.Received;
import org.netpubsub.edge.coordinator.Edge;
import org.netpubsub.edge.link.TestKeys;

/** Two edges on real Mosquitto: the subscription guarantee, restarts, hostile datagrams. */
class EdgeRobustnessTest {
  @TempDir Path dir;

  private static void await(TestClient c, String topic, String payload) {
    Poll.until(
        "'" + payload + "' on " + topic,
        Duration.ofSeconds(10),
        () ->
            c.received().stream()
                .anyMatch(r -> r.topic().equals(topic) && r.payload().equals(payload)));
  }

  @Test
  void onceASubscriptionIsAcknowledgedTheNextMessageReachesIt() throws Exception {
    try (EdgeCluster c = EdgeCluster.start(dir, 2);
        TestClient pub = new TestClient(c.pahoUri(0), "pub");
        TestClient sub = new TestClient(c.pahoUri(1), "sub")) {
      for (int i = 0; i < 15; i++) {
        String topic = "g/" + i + "/x";
        EdgeAgent a = c.agents.get(0);
        long routed = a.stats().routeLookups() + a.stats().cacheHits();
        pub.publish(topic, "before", 0, false); // A now holds a route without B
        Poll.until(
            "A routed 'before'",
            Duration.ofSeconds(10),
            () -> a.stats().routeLookups() + a.stats().cacheHits() == routed + 1);
        String filter = i % 3 == 0 ? topic : i % 3 == 1 ? "g/" + i + "/+" : "g/" + i + "/#";
        sub.subscribe(filter, 1);
        c.awaitFilter(1, filter);
        pub.publish(topic, "after", 1, false); // no wait in between: the guarantee
        await(sub, topic, "after");
      }
      assertThat(sub.received().stream().map(Received::payload)).doesNotContain("before");
      assertThat(c.agents.get(0).stats().routeLookups()).isGreaterThanOrEqualTo(30);
    }
  }

  @Test
  void agentRestartsKeepSubscriptionsAndRoutes(@TempDir Path d) throws Exception {
    try (EdgeCluster c = EdgeCluster.start(d, 2);
        TestClient pub = new TestClient(c.pahoUri(0), "pub");
        TestClient sub = new TestClient(c.pahoUri(1), "sub")) {
      sub.subscribe("r/#", 1);
      c.awaitFilter(1, "r/#");
      pub.publish("r/1", "one", 1, false);
      await(sub, "r/1", "one");

      c.restartAgent(1); // new UDP port: the coordinator tells A
      assertThat(c.agents.get(1).acknowledgedFilters()).contains("r/#");
      pub.publish("r/2", "two", 1, false);
      await(sub, "r/2", "two");

      c.restartAgent(0);
      pub.publish("r/3", "three", 1, false);
      await(sub, "r/3", "three");
      pub.publish("r/4", "four", 1, false); // behind anything still in flight
      await(sub, "r/4", "four");
      assertThat(sub.received()).hasSize(4); // nothing twice
    }
  }

  @Test
  void aCoordinatorRestartOnTheSameDatabaseKeepsEdgesFiltersAndRoutes(@TempDir Path d)
      throws Exception {
    try (EdgeCluster c = EdgeCluster.start(d, 2);
        TestClient pub = new TestClient(c.pahoUri(0), "pub");
        TestClient sub = new TestClient(c.pahoUri(1), "sub")) {
      sub.subscribe("k/+", 1);
      c.awaitFilter(1, "k/+");
      pub.publish("k/1", "one", 1, false);
      await(sub, "k/1", "one");

      c.restartCoordinator();
      assertThat(c.coordinator.edges()).hasSize(2);
      Edge b =
          c.coordinator.edges().keySet().stream()
              .filter(e -> e.name().equals("e1"))
              .findFirst()
              .orElseThrow();
      assertThat(c.coordinator.edges().get(b)).containsExactly("k/+");

      pub.publish("k/2", "two", 1, false); // a route cached before the restart
      await(sub, "k/2", "two");
      pub.publish("k/3", "three", 1, false);
      await(sub, "k/3", "three");
      sub.subscribe("n/#", 0); // a change after the restart
      c.awaitFilter(1, "n/#");
      pub.publish("n/1", "new", 1, false);
      await(sub, "n/1", "new");
    }
  }

  @Test
  void anAgentTheCoordinatorForgotRegistersAndReportsAgain(@TempDir Path d) throws Exception {
    try (EdgeCluster c = EdgeCluster.start(d, 2);
        TestClient pub = new TestClient(c.pahoUri(0), "pub");
        TestClient sub = new TestClient(c.pahoUri(1), "sub")) {
      sub.subscribe("z/#", 1);
      c.awaitFilter(1, "z/#");
      HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:" + c.coordinator.address().getPort() + "/v1/edges/e1"))
                  .DELETE()
                  .build(),
              HttpResponse.BodyHandlers.discarding());
      Poll.until(
          "e1 back with z/#",
          Duration.ofSeconds(10),
          () ->
              c.coordinator.edges().entrySet().stream()
                  .anyMatch(e -> e.getKey().name().equals("e1") && e.getValue().contains("z/#")));
      Poll.until(
          "no report pending", Duration.ofSeconds(10), () -> !c.agents.get(1).reportsPending());
      pub.publish("z/1", "back", 1, false);
      await(sub, "z/1", "back");
    }
  }

  @Test
  void malformedDatagramsAreCountedAndDropped(@TempDir Path d) throws Exception {
    try (EdgeCluster c = EdgeCluster.start(d, 2);
        TestClient pub = new TestClient(c.pahoUri(0), "pub");
        TestClient sub = new TestClient(c.pahoUri(1), "sub");
        DatagramSocket s = new DatagramSocket()) {
      sub.subscribe("m/#", 1);
      c.awaitFilter(1, "m/#");
      EdgeAgent b = c.agents.get(1);
      byte[] good = DatagramCodec.encode(new EdgeMessage("e0", 1, "m/x", new byte[] {1}, 1, false));
      byte[] own = DatagramCodec.encode(new EdgeMessage("e1", 1, "m/x", new byte[] {1}, 1, false));
      List<byte[]> bad =
          List.of(
              "hello".getBytes(StandardCharsets.US_ASCII),
              new byte[0],
              java.util.Arrays.copyOf(good, good.length - 1),
              own);
      for (byte[] x : bad) {
        x = TestKeys.seal(x); // authentic, but malformed
        s.send(new DatagramPacket(x, x.length, b.datagramAddress()));
      }
      Poll.until("4 drops", Duration.ofSeconds(10), () -> b.stats().droppedTotal() == 4);
      assertThat(b.stats().dropped())
          .containsEntry("bad_magic", 1L)
          .containsEntry("truncated", 2L)
          .containsEntry("own_origin", 1L);
      pub.publish("m/after", "still works", 1, false);
      await(sub, "m/after", "still works");
      assertThat(sub.received()).hasSize(1);
    }
  }

  @Test
  void theRealMosquittoClientsWorkAcrossEdges(@TempDir Path d) throws Exception {
    try (EdgeCluster c = EdgeCluster.start(d, 2)) {
      Process sub =
          new ProcessBuilder(
                  "mosquitto_sub",
                  "-p",
                  "" + c.brokers.get(1).port(),
                  "-t",
                  "cli/+",
                  "-C",
                  "1",
                  "-v")
              .redirectErrorStream(true)
              .start();
      try {
        c.awaitFilter(1, "cli/+");
        Process pub =
            new ProcessBuilder(
                    "mosquitto_pub",
                    "-p",
                    "" + c.brokers.get(0).port(),
                    "-t",
                    "cli/a",
                    "-m",
                    "hi",
                    "-q",
                    "1")
                .redirectErrorStream(true)
                .start();
        assertThat(pub.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(sub.waitFor(10, TimeUnit.SECONDS)).as("mosquitto_sub got one message").isTrue();
        assertThat(new String(sub.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip())
            .isEqualTo("cli/a hi");
      } finally {
        sub.destroy();
      }
    }
  }
}
