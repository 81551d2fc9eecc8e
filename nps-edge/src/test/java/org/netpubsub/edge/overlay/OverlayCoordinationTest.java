package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.edge.overlay.OverlayFixture.poll;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.broker.TestClient;
import org.netpubsub.edge.link.LinkProfile;
import org.netpubsub.edge.link.TestKeys;
import org.netpubsub.edge.link.WanEmulation;

/**
 * Coordination faults and the deadline-aware path: a ZooKeeper member lost under a running overlay,
 * an edge broker's session expiring, and a deadline topic taking two paths with duplicates dropped.
 */
class OverlayCoordinationTest {
  static final Duration T = Duration.ofSeconds(20);

  @TempDir Path dir;

  @Test
  void theOverlayKeepsWorkingWhenAZooKeeperMemberIsLost() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir)) {
      TestingCluster ensemble =
          f.track(
              new TestingCluster(
                  List.of(OverlayFixture.spec(1), OverlayFixture.spec(2), OverlayFixture.spec(3))));
      ensemble.start();
      f.connectTo(ensemble.getConnectString()).sessionTimeout(Duration.ofSeconds(4));
      RoutingBroker rb1 = f.routingBroker("rb1");
      RoutingBroker rb2 = f.routingBroker("rb2");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker a = f.edge("paris", ma);
      f.edge("rome", mb);
      TestClient sub = f.mqttClient(mb, "sub");
      TestClient pub = f.mqttClient(ma, "pub");
      sub.subscribe("z/1", 1);
      poll("z/1 ready at paris", T, () -> ready(f, a, "z/1"));
      pub.publish("z/1", "before", 1, false);
      poll("before", T, () -> sub.received().size() == 1);

      ensemble.killServer(ensemble.getInstances().iterator().next());

      // a subscription made after the loss is coordinated by the two members left
      sub.subscribe("z/2", 1);
      poll("z/2 ready at paris", T, () -> ready(f, a, "z/2"));
      pub.publish("z/2", "after", 1, false);
      pub.publish("z/1", "after", 1, false);
      try {
        poll("both after the loss", T, () -> sub.received().size() == 3);
      } catch (AssertionError e) {
        throw new AssertionError(
            e.getMessage()
                + ": "
                + sub.received()
                + " paris "
                + a.counters()
                + " rb1 "
                + rb1.counters()
                + " rb2 "
                + rb2.counters(),
            e);
      }
      assertThat(sub.received())
          .extracting(TestClient.Received::topic)
          .containsExactlyInAnyOrder("z/1", "z/2", "z/1");
    }
  }

  @Test
  void anEdgeWhoseSessionExpiresLosesItsEntriesAndItsTopicsStayLocalElsewhere() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      RoutingBroker rb = f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker a = f.edge("paris", ma);
      TcpProxy proxy = f.track(new TcpProxy(f.zookeeperAddress()));
      f.edge("rome", mb, proxy.connectString(), Map.of());
      TestClient sub = f.mqttClient(mb, "sub");
      sub.subscribe("s/1", 1);
      sub.subscribe("s/2", 0);
      poll("rome's entries at paris", T, () -> ready(f, a, "s/1") && ready(f, a, "s/2"));

      long cut = System.nanoTime();
      proxy.cut(); // rome's host drops off: its session expires after 1 s
      poll(
          "rome's entries gone",
          T,
          () ->
              f.tree().topics().values().stream()
                  .noneMatch(t -> t.subscribers().containsKey("rome")));
      System.out.printf(
          "overlay: an expired edge's entries vanished %d ms after its connection was cut%n",
          (System.nanoTime() - cut) / 1_000_000);
      TestClient pub = f.mqttClient(ma, "pub");
      pub.publish("s/1", "x", 1, false);
      poll("kept local", T, () -> a.counters().getOrDefault("kept_local", 0L) == 1);
      assertThat(rb.counters().getOrDefault("received", 0L)).isZero();
    }
  }

  @Test
  void deadlineTopicsTakeTwoPathsDuplicatesAreDroppedAndAdmissionIsCapped() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      RoutingBroker rb = f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      // at most one direct topic per edge here (the fixture's cap is 4; this edge's is 1)
      EdgeBroker a = f.edge("paris", ma, c -> c.withDeadlines(Map.of("d/#", 50L), 1));
      EdgeBroker b = f.edge("rome", mb);
      TestClient sub = f.mqttClient(mb, "sub");
      TestClient pub = f.mqttClient(ma, "pub");
      sub.subscribe("d/1", 1);
      sub.subscribe("d/2", 1);
      poll("ready", T, () -> ready(f, a, "d/1") && ready(f, a, "d/2"));
      int n = 30;
      for (int i = 0; i < n; i++) {
        pub.publish("d/1", "one" + i, 1, false);
        pub.publish("d/2", "two" + i, 1, false);
      }
      poll("all at rome", T, () -> sub.received().size() == 2 * n);
      // Polled: paris and the broker count a datagram after its send returns, so after rome may
      // have it; and paris re-sends each topic's newest message as tail probes (250 ms on, to the
      // broker and d/1's direct path too), which rome drops as duplicates and the broker relays
      poll(
          "both copies of d/1 seen, each datagram relayed once",
          T,
          () -> {
            Map<String, Long> sent = a.counters();
            Map<String, Long> relay = rb.counters();
            return count(sent, "sent_direct") == n
                && count(sent, "sent_to_broker") == 2L * n
                && count(relay, "relayed") == count(relay, "received")
                && count(b.counters(), "dropped.duplicate") == n + count(sent, "tail_probes");
          });
      assertThat(a.counters())
          .containsEntry("direct_admitted", 1L)
          .containsEntry("direct_refused", 1L);
      assertThat(sub.received().stream().filter(r -> r.topic().equals("d/1")).count()).isEqualTo(n);
    }
  }

  @Test
  void overAnEmulatedWanADeadlineTopicSurvivesALostBrokerPathByItsDirectPath() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      RoutingBroker rb = f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      // paris's link to the routing broker loses everything; every other link takes 40 ms
      WanEmulation wan =
          new WanEmulation(
              LinkProfile.parse("delay=40ms"),
              Map.of(rb.address(), LinkProfile.parse("loss=100%")),
              1);
      EdgeBroker a =
          f.edge("paris", ma, c -> c.withDeadlines(Map.of("d/#", 100L), 1).withEmulation(wan));
      f.edge("rome", mb);
      TestClient sub = f.mqttClient(mb, "sub");
      TestClient pub = f.mqttClient(ma, "pub");
      sub.subscribe("d/1", 0);
      poll("ready", T, () -> ready(f, a, "d/1"));
      int n = 20;
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        pub.publish("d/1", "m" + i, 0, false);
      }
      poll("all at rome by the direct path", T, () -> sub.received().size() == n);
      assertThat(rb.counters().getOrDefault("received", 0L)).isZero(); // the broker path lost all
      assertThat(sub.arrivals().get(0) - start).isGreaterThanOrEqualTo(40_000_000L);
    }
  }

  @Test
  void aReceivingEdgeReportsAMissedDeadlineOnce() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker a = f.edge("paris", ma);
      java.util.List<DeadlineMonitor.Miss> misses =
          new java.util.concurrent.CopyOnWriteArrayList<>();
      java.util.List<Long> missedAt = new java.util.concurrent.CopyOnWriteArrayList<>();
      EdgeBroker b =
          f.track(
              EdgeBroker.start(
                  EdgeBrokerConfig.of(
                          "rome", "rome", mb.uri(), new java.net.InetSocketAddress("127.0.0.1", 0))
                      .withDeadlines(Map.of("dl/#", 400L), 0)
                      .withAuth(TestKeys.AUTH),
                  f.client(f.connect()),
                  m -> {
                    missedAt.add(System.nanoTime());
                    misses.add(m);
                  }));
      TestClient sub = f.mqttClient(mb, "sub");
      TestClient pub = f.mqttClient(ma, "pub");
      sub.subscribe("dl/1", 1);
      poll("ready", T, () -> ready(f, a, "dl/1"));
      for (int i = 0; i < 5; i++) {
        pub.publish("dl/1", "m" + i, 1, false);
      }
      poll("five", T, () -> sub.received().size() == 5);
      poll("a miss after the stream stops", T, () -> !misses.isEmpty());
      pub.publish("dl/1", "late", 1, false);
      poll("six", T, () -> sub.received().size() == 6);
      // the silence after "late" is a new one, reported 400 ms after rome had "late" (which may
      // be before this line under load): count the reports made before "late" reached sub
      long lateAt = sub.arrivals().get(5);
      assertThat(missedAt.stream().filter(t -> t - lateAt < 0)).hasSize(1);
      assertThat(misses.get(0).topic()).isEqualTo("dl/1");
      assertThat(misses.get(0).silentMillis()).isGreaterThan(400);
      // each report counted (just before the listener is told of it)
      poll("each miss counted", T, () -> count(b.counters(), "deadline_missed") == misses.size());
    }
  }

  @Test
  void aLateJoiningSiteGetsTheLastNReliableMessages() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker a = f.edge("paris", ma, c -> c.withDurable(5));
      f.edge("rome", mb);
      TestClient pub = f.mqttClient(ma, "pub");
      for (int i = 0; i < 8; i++) {
        pub.publish("h/1", "m" + i, 1, false); // nobody elsewhere yet: kept local, buffered
      }
      poll("kept local", T, () -> a.counters().getOrDefault("kept_local", 0L) == 8);
      TestClient sub = f.mqttClient(mb, "sub");
      sub.subscribe("h/1", 1);
      poll("the last five at rome", T, () -> sub.received().size() == 5);
      assertThat(sub.received())
          .extracting(TestClient.Received::payload)
          .containsExactly("m3", "m4", "m5", "m6", "m7");
      poll("ready", T, () -> ready(f, a, "h/1"));
      pub.publish("h/1", "live", 1, false);
      poll("live after history", T, () -> sub.received().size() == 6);
      assertThat(sub.received().get(5).payload()).isEqualTo("live");
      // counted after each send returns, so possibly after rome has the history
      poll("five replayed", T, () -> count(a.counters(), "replayed") == 5);
    }
  }

  @Test
  void malformedDatagramsAndZnodesAreCountedAndDropped() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      RoutingBroker rb = f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker a = f.edge("paris", ma);
      EdgeBroker b = f.edge("rome", mb);
      // a foreign writer puts garbage into the tree: counted by whoever watches it, nothing stops
      try (var c = f.client(f.connect())) {
        c.create().forPath("/topics/not%zzencoded", "x".getBytes());
        c.create()
            .creatingParentsIfNeeded()
            .forPath("/topics/ok/sub/mallory", "{\"site\":1}".getBytes());
      }
      f.mqttClient(ma, "ok-sub").subscribe("ok", 1); // so paris caches the topic "ok"
      poll(
          "the bad nodes counted",
          T,
          () ->
              rb.index().malformed() >= 1 // the bad name, in the index
                  && rb.view().malformed() >= 1 // mallory, in the topic assigned to rb
                  && a.view().malformed() >= 1); // mallory, in a topic paris subscribes
      try (java.net.DatagramSocket s = new java.net.DatagramSocket()) {
        byte[][] bad = {
          "hello".getBytes(),
          {'N', 'E', 9, 0, 1, 'x'},
          {'N', 'K', 1, 0, 1, 'a', 0},
          {'N', 'E', 1, 0}
        };
        for (byte[] d : bad) {
          d = TestKeys.seal(d); // authentic, but malformed
          s.send(new java.net.DatagramPacket(d, d.length, rb.address()));
          s.send(new java.net.DatagramPacket(d, d.length, b.address()));
        }
      }
      poll(
          "four drops at each", T, () -> dropped(rb.counters()) == 4 && dropped(b.counters()) == 4);
      assertThat(rb.counters())
          .containsKeys("dropped.bad_magic", "dropped.bad_version", "dropped.truncated");
      assertThat(b.counters()).containsKeys("dropped.nack_truncated");
      // and the overlay still works
      TestClient sub = f.mqttClient(mb, "sub");
      TestClient pub = f.mqttClient(ma, "pub");
      sub.subscribe("m/1", 1);
      poll("ready", T, () -> ready(f, a, "m/1"));
      pub.publish("m/1", "fine", 1, false);
      poll("delivered", T, () -> sub.received().size() == 1);
    }
  }

  static long count(Map<String, Long> counters, String name) {
    return counters.getOrDefault(name, 0L);
  }

  static long dropped(Map<String, Long> counters) {
    return counters.entrySet().stream()
        .filter(e -> e.getKey().startsWith("dropped."))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /**
   * The topic is assigned with a subscriber in the tree, and the publishing edge {@code e} either
   * has not cached it (its first message loads it) or its cache shows that too.
   */
  static boolean ready(OverlayFixture f, EdgeBroker e, String topic) {
    return f.ready(topic)
        && e.view()
            .topic(topic)
            .map(t -> t.assignment().isPresent() && !t.subscribers().isEmpty())
            .orElse(true);
  }
}
