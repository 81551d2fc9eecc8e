package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.coordinator.EdgeCoordinator;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Tokens;

/**
 * Own-key agents fed by a real authenticating coordinator beside real Mosquitto processes
 * (docs/security-datagrams.md, "Per-agent keys from the coordinator"): paris starts first and
 * accepts oslo and rome from its next refresh after they register; a token that may not act as the
 * edge starts nothing; datagrams forged in another edge's name under every key an agent holds are
 * refused; rome is shut out once the coordinator revokes it (keys, datagrams, and routing: its
 * agent may not register again), oslo once it leaves.
 */
class CoordinatorOwnKeysEdgeTest {
  private static final String K1 = "c3".repeat(32);
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final Duration REFRESH = Duration.ofMillis(100);

  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final java.util.logging.Handler capture =
      new java.util.logging.Handler() {
        @Override
        public void publish(java.util.logging.LogRecord r) {
          logged.add(r.getMessage() + " " + r.getThrown());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final java.util.logging.Logger netpubsub =
      java.util.logging.Logger.getLogger("org.netpubsub");
  private EdgeCoordinator coordinator;

  @AfterEach
  void stop() {
    netpubsub.removeHandler(capture);
    for (int i = open.size() - 1; i >= 0; i--) {
      try {
        open.get(i).close();
      } catch (Exception e) {
        // closing
      }
    }
  }

  private <T extends AutoCloseable> T opened(T c) {
    open.add(c);
    return c;
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
        .changeWait(Duration.ofSeconds(5))
        .ownKeyOnly(Map.of())
        .keysFromCoordinator(REFRESH);
  }

  private static DatagramAuth own(String edge) {
    return DatagramAuth.of(EdgeKeys.derive(List.of(java.util.HexFormat.of().parseHex(K1)), edge));
  }

  private static byte[] message(String origin, String topic, DatagramAuth sealer)
      throws DatagramException {
    byte[] d =
        DatagramCodec.encode(
            new EdgeMessage(origin, 1, topic, "x".getBytes(StandardCharsets.UTF_8), 1, false));
    return TestKeys.seal(sealer, d);
  }

  private static long dropped(EdgeAgent a, String reason) {
    return a.stats().dropped().getOrDefault(reason, 0L);
  }

  private static long key(EdgeAgent a, String counter) {
    return a.stats().keys().getOrDefault(counter, -1L);
  }

  private static void delivered(TestClient from, TestClient to, String topic) throws Exception {
    from.publish(topic, "m", 1, false);
    Poll.until(
        topic + " delivered",
        WAIT,
        () -> to.received().stream().anyMatch(r -> r.topic().equals(topic)));
  }

  @Test
  void sendersComeAndGoWithTheCoordinatorAndForgeriesAreRefused() throws Exception {
    netpubsub.addHandler(capture);
    Path principals = dir.resolve("principals.yaml");
    Files.writeString(
        principals,
        "principals:\n"
            + principal("paris")
            + principal("oslo")
            + principal("rome")
            + principal("x"));
    Authenticator auth = opened(Authenticator.load(principals, r -> {}, Duration.ZERO));
    Path keyFile = dir.resolve("datagram.key");
    Files.writeString(keyFile, K1 + "\n");
    Path revoked = dir.resolve("revoked");
    Files.writeString(revoked, "");
    coordinator =
        opened(
            EdgeCoordinator.builder()
                .database("sqlite:" + dir.resolve("c.db"))
                .changeWait(Duration.ofSeconds(5))
                .auth(auth)
                .datagramKeys(keyFile)
                .revokedEdges(revoked)
                .start());
    Mosquitto parisBroker = opened(Mosquitto.start(dir));
    Mosquitto osloBroker = opened(Mosquitto.start(dir));
    Mosquitto romeBroker = opened(Mosquitto.start(dir));

    // a principal that may not act as paris cannot read paris's keys: nothing starts
    assertThatThrownBy(() -> agent("paris", parisBroker, "t-x").start())
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot fetch the agent's own keys from the coordinator")
        .hasMessageContaining("403");

    EdgeAgent paris = opened(agent("paris", parisBroker, "t-paris").start());
    assertThat(key(paris, "sender_keys_held")).isZero();
    EdgeAgent oslo = opened(agent("oslo", osloBroker, "t-oslo").start());
    EdgeAgent rome = opened(agent("rome", romeBroker, "t-rome").start());
    TestClient atParis = opened(new TestClient(parisBroker.pahoUri(), "c-paris"));
    TestClient atOslo = opened(new TestClient(osloBroker.pahoUri(), "c-oslo"));
    TestClient atRome = opened(new TestClient(romeBroker.pahoUri(), "c-rome"));
    atParis.subscribe("k/#", 1);
    Poll.until(
        "filter at paris",
        WAIT,
        () -> paris.acknowledgedFilters().contains("k/#") && !paris.reportsPending());
    // senders registered after paris started: accepted from its next refresh
    Poll.until("paris holds two senders", WAIT, () -> key(paris, "sender_keys_held") == 2);
    delivered(atOslo, atParis, "k/from-oslo");
    delivered(atRome, atParis, "k/from-rome");
    assertThat(paris.stats().dropped()).isEmpty();

    // rome forges oslo's messages under each key it holds (its own, paris's); a name paris has
    // no key of; one oslo really sealed is accepted
    DatagramSocket attacker = opened(new DatagramSocket());
    for (byte[] d :
        List.of(
            message("oslo", "k/forged-own", own("rome")),
            message("oslo", "k/forged-receivers", own("paris")),
            message("e9", "k/forged-unknown", own("rome")),
            message("oslo", "k/sealed-by-oslo", own("oslo")))) {
      attacker.send(new DatagramPacket(d, d.length, paris.datagramAddress()));
    }
    Poll.until(
        "the forged datagrams counted",
        WAIT,
        () -> dropped(paris, "unauthenticated") == 2 && dropped(paris, "origin_key_unknown") == 1);
    // the name paris holds no key of asked for one refresh ahead of time (rate-limited)
    Poll.until("one early refresh", WAIT, () -> key(paris, "key_early_refreshes") == 1);
    Poll.until(
        "the genuine one delivered",
        WAIT,
        () -> atParis.received().stream().anyMatch(r -> r.topic().equals("k/sealed-by-oslo")));
    assertThat(atParis.received()).noneMatch(r -> r.topic().startsWith("k/forged"));

    // the coordinator revokes rome: refused at paris from its next refresh; rome gets no keys
    Files.writeString(revoked, "rome\n");
    Poll.until("paris sees the revocation", WAIT, () -> key(paris, "edges_revoked") == 1);
    // rome's agent gets no route any more (below), so its datagram sealed under its own key is
    // sent to paris directly
    atRome.publish("k/after-revocation", "m", 1, false);
    byte[] fromRome = message("rome", "k/after-revocation", own("rome"));
    attacker.send(new DatagramPacket(fromRome, fromRome.length, paris.datagramAddress()));
    Poll.until("rome refused at paris", WAIT, () -> dropped(paris, "revoked_origin") >= 1);
    Poll.until("rome's refreshes refused", WAIT, () -> key(rome, "key_poll_failures") > 0);
    // and out of routing at the coordinator: rome's agent, finding itself unknown, may not register
    Poll.until(
        "rome's registration refused",
        WAIT,
        () ->
            logged.stream()
                .anyMatch(l -> l.contains("registering again") && l.contains("revoked")));
    assertThat(coordinator.edges().keySet())
        .extracting(org.netpubsub.edge.coordinator.Edge::name)
        .containsExactlyInAnyOrder("paris", "oslo");
    delivered(atOslo, atParis, "k/from-oslo-still");
    assertThat(atParis.received()).noneMatch(r -> r.topic().equals("k/after-revocation"));
    assertThat(key(paris, "sender_keys_held")).isEqualTo(1);

    // oslo leaves the coordinator: its key leaves paris's senders at the next refresh
    oslo.leave();
    Poll.until("oslo's key dropped at paris", WAIT, () -> key(paris, "sender_keys_held") == 0);
    long unknown = dropped(paris, "origin_key_unknown");
    byte[] d = message("oslo", "k/after-removal", own("oslo"));
    attacker.send(new DatagramPacket(d, d.length, paris.datagramAddress()));
    Poll.until(
        "oslo refused at paris", WAIT, () -> dropped(paris, "origin_key_unknown") == unknown + 1);
    assertThat(atParis.received()).noneMatch(r -> r.topic().equals("k/after-removal"));
    assertThat(key(paris, "key_poll_failures")).isZero();
    List<String> secrets = new ArrayList<>(List.of(K1));
    for (String e : List.of("paris", "oslo", "rome")) {
      secrets.add(
          java.util.HexFormat.of()
              .formatHex(EdgeKeys.derive(java.util.HexFormat.of().parseHex(K1), e)));
    }
    assertThat(logged)
        .anyMatch(l -> l.contains("refresh failed")) // rome's, after its revocation
        .noneMatch(l -> secrets.stream().anyMatch(l::contains));
  }
}
