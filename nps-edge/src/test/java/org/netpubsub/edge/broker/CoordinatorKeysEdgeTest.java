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
 * may not act as the edge starts nothing. An edge revoked at the coordinator alone is refused by
 * the agents holding the deployment keys from their next refresh, and with {@code
 * --rotate-on-revoke} the keys it held stop opening anything once their grace is over.
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

  /** A message datagram naming {@code origin}, sealed under the hex key {@code key}. */
  private static byte[] fromEdge(String origin, String key) throws Exception {
    byte[] d =
        DatagramCodec.encode(
            new EdgeMessage(
                origin, 7, "t/1", "x".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, false));
    return org.netpubsub.edge.link.TestKeys.seal(DatagramAuth.of(keys(key)), d);
  }

  private static boolean opens(AgentKeys k, byte[] d) {
    return k.open(d, 0, d.length, null) >= 0;
  }

  @Test
  void aRevocationAtTheCoordinatorReachesDeploymentKeyHoldersAndRotatesTheKeysTheEdgeHeld()
      throws Exception {
    Path principals = dir.resolve("principals.yaml");
    Files.writeString(principals, "principals:\n" + principal("paris") + principal("rome"));
    auth = Authenticator.load(principals, r -> {}, Duration.ZERO);
    Path keyFile = dir.resolve("datagram.key");
    Files.writeString(keyFile, K1 + "\n");
    Path revoked = Files.writeString(dir.resolve("revoked"), "");
    java.util.concurrent.atomic.AtomicLong wall = new java.util.concurrent.atomic.AtomicLong(1);
    java.util.concurrent.atomic.AtomicLong mono = new java.util.concurrent.atomic.AtomicLong(1);
    Duration grace = Duration.ofMinutes(2);
    Duration interval = Duration.ofSeconds(30);
    coordinator =
        org.netpubsub.edge.coordinator.CoordinatorTestAccess.wallClock(
                EdgeCoordinator.builder()
                    .database("sqlite:" + dir.resolve("c.db"))
                    .auth(auth)
                    .datagramKeys(keyFile)
                    .revokedEdges(revoked)
                    .rotateOnRevoke(grace),
                wall::get)
            .start();
    URI at = URI.create("http://127.0.0.1:" + coordinator.address().getPort());
    CoordinatorClient asParis = new CoordinatorClient(at, WAIT, "t-paris", null);
    CoordinatorClient asRome = new CoordinatorClient(at, WAIT, "t-rome", null);
    // paris as an agent holding the deployment keys from the coordinator, refreshed by hand
    KeyPoller paris = KeyPoller.fetch(() -> asParis.keys("paris"), interval, mono::get);
    AgentKeys atParis = AgentKeys.deployment("paris", paris.auth());
    atParis.revokedByCoordinator(paris.revoked());
    paris.start("paris", atParis); // its thread's first refresh is an interval away
    try {
      assertThat(asRome.keys("rome").keys()).hasSize(1); // rome holds the deployment key, K1
      assertThat(opens(atParis, fromEdge("rome", K1))).isTrue();
      assertThat(opens(atParis, fromEdge("oslo", K1))).isTrue();

      Files.writeString(revoked, "rome\n");
      paris.poll(); // one refresh after the revocation
      assertThat(opens(atParis, fromEdge("rome", K1))).isFalse();
      assertThat(atParis.refusal()).isEqualTo("revoked_origin");
      // the keys were rotated: paris signs with a fresh key, K1 is still accepted in its grace
      List<byte[]> served = asParis.keys("paris").keys();
      assertThat(served).hasSize(2);
      assertThat(HexFormat.of().formatHex(served.get(1))).isEqualTo(K1);
      String fresh = HexFormat.of().formatHex(served.get(0));
      assertThat(paris.counters()).containsEntry("key_rotations", 1L);
      assertThat(opens(atParis, fromEdge("oslo", K1))).isTrue(); // rome's forgery, in the grace
      assertThat(opens(atParis, fromEdge("oslo", fresh))).isTrue();
      assertThatThrownBy(() -> asRome.keys("rome")).hasMessageContaining("403");

      // the grace ends: the coordinator drops K1, and paris one refresh interval later
      wall.addAndGet(grace.toMillis());
      paris.poll();
      assertThat(asParis.keys("paris").keys()).hasSize(1);
      assertThat(opens(atParis, fromEdge("oslo", K1))).isTrue(); // held one interval at paris
      mono.addAndGet(interval.toNanos());
      paris.poll();
      assertThat(opens(atParis, fromEdge("oslo", K1))).isFalse();
      assertThat(atParis.refusal()).isEqualTo("unauthenticated");
      assertThat(opens(atParis, fromEdge("oslo", fresh))).isTrue();
      assertThat(Files.readString(keyFile)).doesNotContain(K1).contains(fresh);
    } finally {
      paris.close();
    }
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
            .revokedEdges(Files.writeString(dir.resolve("revoked"), "# none\n"))
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

    // rome revoked in the coordinator's file only: tokyo refuses it from its next refresh
    byte[] fromRome = fromEdge("rome", K2);
    try (java.net.DatagramSocket s = new java.net.DatagramSocket()) {
      Files.writeString(dir.resolve("revoked"), "rome\n");
      Poll.until(
          "rome refused at tokyo",
          WAIT,
          () -> {
            try {
              s.send(
                  new java.net.DatagramPacket(fromRome, fromRome.length, tokyo.datagramAddress()));
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            return tokyo.stats().dropped().getOrDefault("revoked_origin", 0L) > 0;
          });
    }
    assertThat(tokyo.stats().keys()).containsEntry("edges_revoked", 1L);
    assertThat(tokyo.stats().keys().get("key_polls")).isPositive();
    assertThat(tokyo.stats().keys()).containsEntry("key_poll_failures", 0L);
    assertThat(logged)
        .anyMatch(l -> l.contains("rotated the signing key"))
        .noneMatch(l -> l.contains(K1) || l.contains(K2));
  }
}
