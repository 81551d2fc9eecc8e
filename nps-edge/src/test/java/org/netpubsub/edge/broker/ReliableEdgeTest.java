package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.broker.RepairCodec.Kind;
import org.netpubsub.edge.broker.RepairCodec.Repair;
import org.netpubsub.edge.broker.TestClient.Received;
import org.netpubsub.edge.link.LinkProfile;
import org.netpubsub.edge.link.TestKeys;
import org.netpubsub.edge.link.WanEmulation;

/**
 * Reliable mode over a lossy datagram path: every agent sends through an emulated link that drops
 * 15 % of all its datagrams (messages, NACKs, retransmissions, heartbeats) by a fixed seed. Every
 * message must still arrive exactly once and in order per (publisher, topic), as on one broker.
 */
class ReliableEdgeTest {
  private static final double LOSS = 0.15;

  private static ReliableDelivery.Settings settings(int buffer) {
    return new ReliableDelivery.Settings(
        buffer, Duration.ofMillis(30), 100, Duration.ofMillis(20), 4); // 3 s of NACKs: CI is slow
  }

  private static WanEmulation lossy(int edge, double loss) {
    return new WanEmulation(
        new LinkProfile(Duration.ZERO, Duration.ZERO, loss), Map.of(), 42 + edge);
  }

  private static EdgeCluster lossyCluster(Path dir, int edges, int buffer, double loss)
      throws Exception {
    return EdgeCluster.start(
        dir, edges, (i, b) -> b.reliable(settings(buffer)).emulation(lossy(i, loss)));
  }

  @Test
  void theDifferentialScriptOverALossyPathMatchesOneBroker(@TempDir Path dir) throws Exception {
    Map<String, List<Received>> single = EdgeDifferentialTest.onOneBroker(dir);
    Map<String, List<Received>> edges;
    try (EdgeCluster c = lossyCluster(dir, 3, 1000, LOSS)) {
      edges = EdgeDifferentialTest.run(EdgeDifferentialTest.Env.of(c, c::settleReliable));
      assertRepairedEverything(c);
    }
    assertThat(edges).isEqualTo(single);
  }

  @Test
  void aBurstOverALossyPathArrivesOnceAndInOrder(@TempDir Path dir) throws Exception {
    int n = 150;
    try (EdgeCluster c = lossyCluster(dir, 3, 1000, LOSS);
        TestClient s0 = new TestClient(c.pahoUri(0), "s0");
        TestClient s1 = new TestClient(c.pahoUri(1), "s1");
        TestClient s2 = new TestClient(c.pahoUri(2), "s2");
        TestClient p0 = new TestClient(c.pahoUri(0), "p0");
        TestClient p1 = new TestClient(c.pahoUri(1), "p1")) {
      s0.subscribe("bulk/a", 1);
      s1.subscribe("bulk/#", 1);
      s2.subscribe("bulk/+", 1);
      c.awaitFilter(0, "bulk/a");
      c.awaitFilter(1, "bulk/#");
      c.awaitFilter(2, "bulk/+");
      for (int i = 1; i <= n; i++) {
        for (String t : List.of("a", "b")) {
          p0.publish("bulk/" + t, "p0-" + t + "-" + i, 1, false);
          p1.publish("bulk/" + t, "p1-" + t + "-" + i, 1, false);
        }
      }
      List<Received> all0 = expected(n, List.of("p0", "p1"), List.of("a"));
      List<Received> all = expected(n, List.of("p0", "p1"), List.of("a", "b"));
      Poll.until(
          "every message arrives",
          Duration.ofSeconds(30),
          () ->
              s2.received().size() >= all.size()
                  && s1.received().size() >= all.size()
                  && s0.received().size() >= all0.size());
      c.settleReliable();
      // one broker keeps each publisher's order per topic; interleaving across them is free
      assertThat(perSource(s0.received())).isEqualTo(perSource(all0));
      assertThat(perSource(s1.received())).isEqualTo(perSource(all));
      assertThat(perSource(s2.received())).isEqualTo(perSource(all));
      assertThat(s0.received()).hasSize(all0.size());
      assertThat(s1.received()).hasSize(all.size());
      assertThat(s2.received()).hasSize(all.size());
      assertRepairedEverything(c);
    }
  }

  @Test
  void aBufferTooSmallGivesUpCleanlyAndBadControlDatagramsAreCounted(@TempDir Path dir)
      throws Exception {
    int n = 100;
    try (EdgeCluster c = lossyCluster(dir, 2, 1, 0.3);
        TestClient s1 = new TestClient(c.pahoUri(1), "s1");
        TestClient p0 = new TestClient(c.pahoUri(0), "p0")) {
      s1.subscribe("small/#", 1);
      c.awaitFilter(1, "small/#");
      for (int i = 1; i <= n; i++) {
        p0.publish("small/t", Integer.toString(i), 1, false);
      }
      Poll.until(
          "e0 forwards all",
          Duration.ofSeconds(10),
          () -> c.agents.get(0).stats().forwarded() == n);
      c.settleReliable();
      AgentStats r = c.agents.get(1).stats();
      Poll.until(
          "the subscriber has what was published",
          Duration.ofSeconds(10),
          () -> s1.received().size() == r.published());
      List<Integer> got = s1.received().stream().map(m -> Integer.parseInt(m.payload())).toList();
      // only the newest message is buffered: a NACK for an older one is answered "gone"
      assertThat(r.reliable("gone_received")).isPositive();
      assertThat(r.reliable("lost")).isPositive();
      // before the first number e1 saw, a number may never have been e1's: "unknown", not lost
      assertThat(got.size() + r.reliable("lost") + r.reliable("unknown")).isEqualTo(n);
      assertThat(got).isSorted().doesNotHaveDuplicates();

      // malformed or misdirected control datagrams are counted and dropped
      InetSocketAddress at = c.agents.get(0).datagramAddress();
      long session = 1;
      List<byte[]> bad = new ArrayList<>();
      byte[] ok = RepairCodec.encode(new Repair(Kind.NACK, "e0", session, "small/t", 1, 2));
      bad.add(java.util.Arrays.copyOf(ok, ok.length - 1)); // truncated
      byte[] kind = ok.clone();
      kind[3] = 99;
      bad.add(kind);
      bad.add(RepairCodec.encode(new Repair(Kind.NACK, "e0", session, "small/t", 5, 2)));
      bad.add(RepairCodec.encode(new Repair(Kind.NACK, "e0", session, "small/#", 1, 2)));
      bad.add(RepairCodec.encode(new Repair(Kind.NACK, "e0", 0, "small/t", 1, 2)));
      bad.add(RepairCodec.encode(new Repair(Kind.NACK, "e9", session, "small/t", 1, 2)));
      try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
        for (byte[] b : bad) {
          b = TestKeys.seal(b);
          s.send(new DatagramPacket(b, b.length, at));
        }
        // an old session's NACK is answered "gone" for the whole range (asked until an answer
        // crosses e0's lossy link)
        byte[] buf = new byte[512];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        s.setSoTimeout(200);
        Repair answer = null;
        for (int i = 0; i < 50 && answer == null; i++) {
          byte[] sealed = TestKeys.seal(ok);
          s.send(new DatagramPacket(sealed, sealed.length, at));
          try {
            s.receive(p);
            byte[] body = TestKeys.open(buf, p.getLength());
            answer = RepairCodec.decode(body, 0, body.length);
          } catch (java.net.SocketTimeoutException e) {
            // lost on the way: ask again
          }
        }
        assertThat(answer)
            .extracting(Repair::kind, Repair::from, Repair::to)
            .containsExactly(Kind.GONE, 1L, 2L);
      }
      Poll.until(
          "bad control datagrams counted",
          Duration.ofSeconds(5),
          () -> {
            Map<String, Long> d = c.agents.get(0).stats().dropped();
            return d.keySet()
                .containsAll(
                    Set.of(
                        "control_truncated",
                        "control_bad_kind",
                        "control_bad_range",
                        "control_bad_topic",
                        "control_bad_session",
                        "nack_not_ours"));
          });
    }
  }

  private static void assertRepairedEverything(EdgeCluster c) {
    long nacks = 0;
    long resent = 0;
    for (EdgeAgent a : c.agents) {
      AgentStats s = a.stats();
      assertThat(s.reliable("lost")).as(a.edge() + " lost " + s).isZero();
      assertThat(s.dropped().keySet()).as(a.edge() + " drops").isSubsetOf(Set.of("duplicate"));
      nacks += s.reliable("nacks_sent");
      resent += s.reliable("retransmitted");
    }
    assertThat(nacks).as("the path lost something").isPositive();
    assertThat(resent).isPositive();
  }

  private static List<Received> expected(int n, List<String> pubs, List<String> topics) {
    List<Received> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      for (String t : topics) {
        for (String p : pubs) {
          out.add(new Received("bulk/" + t, p + "-" + t + "-" + i, false));
        }
      }
    }
    return out;
  }

  /** Messages grouped by (publisher, topic), each group in arrival order. */
  private static Map<String, List<String>> perSource(List<Received> rs) {
    Map<String, List<String>> out = new java.util.TreeMap<>();
    for (Received r : rs) {
      String pub = r.payload().substring(0, 2);
      out.computeIfAbsent(pub + " " + r.topic(), k -> new ArrayList<>()).add(r.payload());
    }
    return out;
  }
}
