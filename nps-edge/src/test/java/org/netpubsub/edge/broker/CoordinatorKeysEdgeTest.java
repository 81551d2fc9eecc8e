package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.coordinator.EdgeCoordinator;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Tokens;

/**
 * An agent holding only a coordinator token (no key file) beside real Mosquitto processes: it
 * fetches the keys from an authenticating coordinator, its datagrams are accepted by an agent that
 * holds the key file, and it follows the file's three-step rotation with nothing lost. A token that
 * may not act as the edge starts nothing.
 */
class CoordinatorKeysEdgeTest {
  private static final String K1 = "a1".repeat(32);
  private static final String K2 = "b2".repeat(32);
  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir Path dir;
  private final List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          logged.add(r.getMessage() + " " + r.getThrown());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final Logger netpubsub = Logger.getLogger("org.netpubsub");
  private Authenticator auth;
  private EdgeCoordinator coordinator;
  private Mosquitto tokyoBroker;
  private Mosquitto fileBroker;
  private EdgeAgent tokyo;
  private EdgeAgent holder;
  private TestClient atTokyo;
  private TestClient atHolder;

  @AfterEach
  void stop() {
    netpubsub.removeHandler(capture);
    for (AutoCloseable c :
        new AutoCloseable[] {
          atTokyo, atHolder, tokyo, holder, tokyoBroker, fileBroker, coordinator, auth
        }) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          // closing
        }
      }
    }
  }

  private static String principal(String name) {
    return "  - name: "
        + name
        + "\n    token_sha256: "
        + Tokens.sha256("t-" + name)
        + "\n    edges: ["
        + name
        + "]\n";
  }

  private EdgeAgent.Builder agent(String edge, Mosquitto broker, String token) {
    return EdgeAgent.builder()
        .edge(edge)
        .broker(broker.uri())
        .coordinator(URI.create("http://127.0.0.1:" + coordinator.address().getPort()))
        .coordinatorToken(token)
        .listen(new InetSocketAddress("127.0.0.1", 0))
        .changeWait(Duration.ofSeconds(5));
  }

  private static List<byte[]> keys(String... hex) {
    return java.util.Arrays.stream(hex).map(HexFormat.of()::parseHex).toList();
  }

  private void awaitFilter(EdgeAgent a, String filter) {
    Poll.until(
        "filter " + filter + " acknowledged at " + a.edge(),
        WAIT,
        () -> a.acknowledgedFilters().contains(filter) && !a.reportsPending());
  }

  /** Publishes at {@code from} and waits until {@code to} receives it. */
  private static void delivered(TestClient from, TestClient to, String topic) throws Exception {
    from.publish(topic, "m", 1, false);
    Poll.until(
        topic + " delivered",
        WAIT,
        () -> to.received().stream().anyMatch(r -> r.topic().equals(topic)));
  }

  @Test
  void anAgentWithOnlyATokenSendsAcceptedDatagramsAndFollowsARotation() throws Exception {
    netpubsub.addHandler(capture);
    Path principals = dir.resolve("principals.yaml");
    Files.writeString(
        principals, "principals:\n" + principal("tokyo") + principal("holder") + principal("x"));
    auth = Authenticator.load(principals, r -> {}, Duration.ZERO);
    Path keyFile = dir.resolve("datagram.key");
    Files.writeString(keyFile, K1 + "\n");
    coordinator =
        EdgeCoordinator.builder()
            .database("sqlite:" + dir.resolve("c.db"))
            .changeWait(Duration.ofSeconds(5))
            .auth(auth)
            .datagramKeys(keyFile)
            .start();
    tokyoBroker = Mosquitto.start(dir);
    fileBroker = Mosquitto.start(dir);

    // a token that may not act as the edge, or none: nothing starts, one line says why
    assertThatThrownBy(
            () ->
                agent("tokyo", tokyoBroker, "t-x")
                    .keysFromCoordinator(Duration.ofMillis(100))
                    .start())
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot fetch the datagram keys from the coordinator")
        .hasMessageContaining("403")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(
            () ->
                agent("tokyo", tokyoBroker, null)
                    .keysFromCoordinator(Duration.ofMillis(100))
                    .start())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("401");

    tokyo =
        agent("tokyo", tokyoBroker, "t-tokyo").keysFromCoordinator(Duration.ofMillis(100)).start();
    DatagramAuth fileKeys = DatagramAuth.fromFile(keyFile);
    holder = agent("holder", fileBroker, "t-holder").auth(fileKeys).start();
    atTokyo = new TestClient(tokyoBroker.pahoUri(), "c-tokyo");
    atHolder = new TestClient(fileBroker.pahoUri(), "c-holder");
    atHolder.subscribe("k/#", 1);
    atTokyo.subscribe("r/#", 1);
    awaitFilter(holder, "k/#");
    awaitFilter(tokyo, "r/#");
    delivered(
        atTokyo, atHolder, "k/1"); // signed with the coordinator's key, checked with the file's
    delivered(atHolder, atTokyo, "r/1");

    // the rotation of docs/security.md: each step in the coordinator's file and at the file holder
    Files.writeString(keyFile, K1 + "\n" + K2 + "\n");
    fileKeys.update(keys(K1, K2));
    Poll.until("tokyo accepts the new key", WAIT, () -> tokyo.stats().keys().get("keys_held") == 2);
    Files.writeString(keyFile, K2 + "\n" + K1 + "\n");
    fileKeys.update(keys(K2, K1));
    Poll.until(
        "tokyo signs with the new key", WAIT, () -> tokyo.stats().keys().get("key_rotations") == 1);
    Files.writeString(keyFile, K2 + "\n");
    fileKeys.update(keys(K2)); // the holder now refuses the old key
    delivered(atTokyo, atHolder, "k/2");
    delivered(atHolder, atTokyo, "r/2");

    assertThat(holder.stats().dropped()).doesNotContainKey("unauthenticated");
    assertThat(tokyo.stats().dropped()).doesNotContainKey("unauthenticated");
    assertThat(tokyo.stats().keys().get("key_polls")).isPositive();
    assertThat(tokyo.stats().keys()).containsEntry("key_poll_failures", 0L);
    assertThat(logged)
        .anyMatch(l -> l.contains("rotated the signing key"))
        .noneMatch(l -> l.contains(K1) || l.contains(K2));
  }
}
