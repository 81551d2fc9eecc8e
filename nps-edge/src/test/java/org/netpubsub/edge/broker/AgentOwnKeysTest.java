package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;

/**
 * Per-agent keys (docs/security-datagrams.md, "Per-agent keys (SNAPS)") on real sockets beside real
 * Mosquitto processes. Agents e0, e1 and e2 hold their own keys only: e0 (the attacker) holds e2's
 * key (it receives from e2) but not e1's; e2 holds e0's and e1's. e3 holds the deployment keys.
 * What e0 sends in e1's name, under any key it holds, is refused and counted by e2 and delivers
 * nothing; its own messages are delivered until e2's senders are reloaded without it, and at e3
 * until e3 revokes it.
 */
class AgentOwnKeysTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir Path dir;

  private static DatagramAuth own(String edge) {
    return DatagramAuth.of(EdgeKeys.derive(TestKeys.AUTH.keys(), edge));
  }

  private static Map<String, DatagramAuth> senders(String... edges) {
    Map<String, DatagramAuth> m = new HashMap<>();
    for (String e : edges) {
      m.put(e, own(e));
    }
    return m;
  }

  private static EdgeAgent.Builder keys(int i, EdgeAgent.Builder b) {
    return switch (i) {
      case 0 -> b.auth(own("e0")).ownKeyOnly(senders("e2"));
      case 1 -> b.auth(own("e1")).ownKeyOnly(senders("e0", "e2"));
      case 2 -> b.auth(own("e2")).ownKeyOnly(senders("e0", "e1"));
      default -> b; // the deployment keys (TestKeys.AUTH)
    };
  }

  private static void delivered(TestClient from, TestClient to, String topic) throws Exception {
    from.publish(topic, "m", 1, false);
    Poll.until(
        topic + " delivered",
        WAIT,
        () -> to.received().stream().anyMatch(r -> r.topic().equals(topic)));
  }

  private static byte[] message(String origin, String topic, DatagramAuth sealer) throws Exception {
    byte[] d =
        DatagramCodec.encode(
            new EdgeMessage(origin, 1, topic, "x".getBytes(StandardCharsets.UTF_8), 1, false));
    return TestKeys.seal(sealer, d);
  }

  private static long dropped(EdgeAgent a, String reason) {
    return a.stats().dropped().getOrDefault(reason, 0L);
  }

  @Test
  void anOwnKeyAgentCannotSendAsAnotherAndARemovedOrRevokedSenderIsShutOut() throws Exception {
    try (EdgeCluster c = EdgeCluster.start(dir, 3, AgentOwnKeysTest::keys);
        TestClient at0 = new TestClient(c.pahoUri(0), "c0");
        TestClient at1 = new TestClient(c.pahoUri(1), "c1");
        TestClient at2 = new TestClient(c.pahoUri(2), "c2");
        DatagramSocket attacker = new DatagramSocket()) {
      EdgeAgent e2 = c.agents.get(2);
      at2.subscribe("t/#", 1);
      c.awaitFilter(2, "t/#");
      delivered(at1, at2, "t/from-e1"); // e1's own key, checked by e2 under e1's key
      delivered(at0, at2, "t/from-e0");
      assertThat(e2.stats().dropped()).isEmpty();

      // e0 forges e1's messages under each key it holds (its own, e2's), and names an edge e2 has
      // no key of; a control datagram in e1's name too. A datagram e1 really sealed is accepted.
      List<byte[]> forged =
          List.of(
              message("e1", "t/forged-own", own("e0")),
              message("e1", "t/forged-receivers", own("e2")),
              TestKeys.seal(
                  own("e0"),
                  RepairCodec.encode(
                      new RepairCodec.Repair(RepairCodec.Kind.HEARTBEAT, "e1", 5, "t/x", 9, 9))),
              message("e9", "t/forged-unknown", own("e0")),
              message("e1", "t/sealed-by-e1", own("e1")));
      for (byte[] d : forged) {
        attacker.send(new DatagramPacket(d, d.length, e2.datagramAddress()));
      }
      Poll.until(
          "the forged datagrams counted",
          WAIT,
          () -> dropped(e2, "unauthenticated") == 3 && dropped(e2, "origin_key_unknown") == 1);
      Poll.until(
          "the genuine one delivered",
          WAIT,
          () -> at2.received().stream().anyMatch(r -> r.topic().equals("t/sealed-by-e1")));
      assertThat(at2.received()).noneMatch(r -> r.topic().startsWith("t/forged"));

      // the reload of e2's sender keys without e0: e0's next message is refused and counted
      e2.senderKeys(senders("e1"));
      long before = dropped(e2, "origin_key_unknown");
      at0.publish("t/after-removal", "m", 1, false);
      Poll.until("e0 refused at e2", WAIT, () -> dropped(e2, "origin_key_unknown") == before + 1);
      delivered(at1, at2, "t/from-e1-still");
      assertThat(at2.received()).noneMatch(r -> r.topic().equals("t/after-removal"));

      // a deployment-key agent, started last (its retained-replay requests, sealed under the
      // deployment keys, are refused at own-key agents and would blur the counts above), accepts
      // e0's messages under e0's derived key until it revokes e0: then refused whatever the key
      EdgeAgent e3 = c.agents.get(c.addEdge());
      try (TestClient at3 = new TestClient(c.pahoUri(3), "c3")) {
        at3.subscribe("t/#", 1);
        c.awaitFilter(3, "t/#");
        delivered(at0, at3, "t/from-e0-at-e3");
        e3.revokeEdges(Set.of("e0"));
        at0.publish("t/after-revocation", "m", 1, false);
        Poll.until("e0 refused at e3", WAIT, () -> dropped(e3, "revoked_origin") == 1);
        delivered(at1, at3, "t/from-e1-at-e3");
        assertThat(at3.received()).noneMatch(r -> r.topic().equals("t/after-revocation"));
      }
    }
  }
}
