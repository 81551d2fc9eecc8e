package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.edge.overlay.OverlayFixture.poll;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.broker.TestClient;
import org.netpubsub.edge.link.LinkProfile;
import org.netpubsub.edge.link.WanEmulation;

/**
 * Two sites, each a real Mosquitto with an overlay edge broker, and two routing brokers on one real
 * ZooKeeper: global topics cross through the assigned routing broker, local topics never leave,
 * wildcard subscribers join topics published elsewhere, and leaving updates tree and routing.
 */
class OverlayDataPathTest {
  static final Duration T = Duration.ofSeconds(15);

  @TempDir Path dir;

  @Test
  void globalTopicsCrossSitesThroughTheRoutingBrokerAndLocalTopicsStayHome() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      RoutingBroker rb1 = f.routingBroker("rb1");
      RoutingBroker rb2 = f.routingBroker("rb2");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker a = f.edge("paris", ma);
      EdgeBroker b = f.edge("rome", mb);
      TestClient subB = f.mqttClient(mb, "sub-b");
      TestClient subA = f.mqttClient(ma, "sub-a");
      TestClient pubA = f.mqttClient(ma, "pub-a");
      subB.subscribe("g/1", 1);
      subB.subscribe("w/#", 1);
      subA.subscribe("local/1", 1);

      // rome's exact subscription is in the tree and assigned (paris loads g/1 when it publishes)
      poll(
          "g/1 assigned with rome's entry",
          T,
          () ->
              b.view()
                  .topic("g/1")
                  .filter(t -> t.assignment().isPresent() && t.subscribers().containsKey("rome"))
                  .isPresent());
      for (int i = 0; i < 20; i++) {
        pubA.publish("g/1", "g" + i, 1, false);
        pubA.publish("local/1", "l" + i, 1, false);
      }
      poll("20 global messages at rome", T, () -> subB.received().size() == 20);
      poll("20 local messages at paris", T, () -> subA.received().size() == 20);
      assertThat(subB.received()).extracting(TestClient.Received::payload).first().isEqualTo("g0");
      assertThat(subB.received()).allMatch(r -> r.topic().equals("g/1"));
      // no local message reached an RB: they received g/1's 20 and its tail probes (re-sent last
      // messages, 250 ms on), and relayed each once. Polled: paris counts a datagram after its send
      // returns and after rome may have it, and counts a local one independently of subA
      poll(
          "the brokers received what paris sent",
          T,
          () -> {
            Map<String, Long> c = a.counters();
            return c.getOrDefault("sent_to_broker", 0L) == 20
                && c.getOrDefault("kept_local", 0L) == 20
                && relayedBy(rb1, rb2, "received") == 20 + c.getOrDefault("tail_probes", 0L)
                && relayedBy(rb1, rb2, "relayed") == relayedBy(rb1, rb2, "received");
          });
      String assigned = f.tree().topic("g/1").orElseThrow().assignment().orElseThrow().broker();
      RoutingBroker other = assigned.equals("rb1") ? rb2 : rb1;
      // all relayed by the owner (one read: tail probes may be relayed meanwhile)
      assertThat(other.counters().getOrDefault("relayed", 0L)).as("relayed by the other").isZero();

      // a wildcard subscriber joins a topic once a publisher elsewhere creates it
      pubA.publish("w/x", "first", 1, false);
      poll(
          "rome's wildcard entry for w/x at paris",
          T,
          () -> a.view().topic("w/x").filter(t -> t.subscribers().containsKey("rome")).isPresent());
      pubA.publish("w/x", "second", 1, false);
      poll(
          "w/x at rome",
          T,
          () -> subB.received().stream().anyMatch(r -> r.payload().equals("second")));

      // leaving: rome's subscriber goes, its entry goes, g/1 stays at paris
      subB.unsubscribe("g/1");
      poll(
          "rome's g/1 entry gone at paris",
          T,
          () -> a.view().topic("g/1").map(t -> !t.subscribers().containsKey("rome")).orElse(true));
      long sentBefore = a.counters().getOrDefault("sent_to_broker", 0L);
      long localBefore = a.counters().getOrDefault("kept_local", 0L);
      pubA.publish("g/1", "after", 1, false);
      poll("kept local", T, () -> a.counters().getOrDefault("kept_local", 0L) == localBefore + 1);
      // Not the brokers' "received" before and after: w/x, published just above, is still tail
      // probed (250 ms to 4 s after "second") through its routing broker, so a probe could land
      // between the two reads (seen once: 26, not 25). Every datagram the brokers received is one
      // paris counted (a message to its broker, or a tail probe), and no new message went there.
      poll(
          "the brokers received only paris's messages and tail probes",
          T,
          () -> {
            Map<String, Long> c = a.counters();
            return relayedBy(rb1, rb2, "received")
                == c.getOrDefault("sent_to_broker", 0L) + c.getOrDefault("tail_probes", 0L);
          });
      assertThat(a.counters().getOrDefault("sent_to_broker", 0L)).isEqualTo(sentBefore);
      assertThat(b.entries())
          .doesNotContain(new EdgeInterest.Entry("g/1", ZnodePaths.Role.SUBSCRIBER));
    }
  }

  static long relayedBy(RoutingBroker x, RoutingBroker y, String counter) {
    return List.of(x, y).stream().mapToLong(r -> r.counters().getOrDefault(counter, 0L)).sum();
  }

  @Test
  void aReliableTopicArrivesInOrderAlthoughTheBrokerPathLosesMessages() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      RoutingBroker rb = f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      // paris's link to the routing broker loses 10 %: NACKs repair each loss, the repair arriving
      // after the messages published behind it (straight from paris, ~ms later)
      WanEmulation wan =
          new WanEmulation(
              LinkProfile.PERFECT, Map.of(rb.address(), LinkProfile.parse("loss=10%")), 7);
      EdgeBroker a = f.edge("paris", ma, c -> c.withEmulation(wan));
      EdgeBroker b = f.edge("rome", mb);
      TestClient sub = f.mqttClient(mb, "sub");
      TestClient pub = f.mqttClient(ma, "pub");
      sub.subscribe("o/1", 1);
      poll(
          "o/1 assigned with rome's entry",
          T,
          () ->
              b.view()
                  .topic("o/1")
                  .filter(t -> t.assignment().isPresent() && t.subscribers().containsKey("rome"))
                  .isPresent());
      int total = 300;
      for (int i = 0; i < total; i++) {
        pub.publish("o/1", "o" + i, 1, false);
      }
      poll("all " + total + " at rome", T, () -> sub.received().size() >= total);

      assertThat(sub.received())
          .extracting(TestClient.Received::payload)
          .as("in the order published, each once")
          .containsExactlyElementsOf(IntStream.range(0, total).mapToObj(i -> "o" + i).toList());
      assertThat(b.counters().getOrDefault("recovered", 0L)).isPositive(); // there were losses
      assertThat(b.counters().getOrDefault("reorder_lost", 0L)).isZero();
      poll("retransmissions counted", T, () -> a.counters().getOrDefault("retransmitted", 0L) > 0);
    }
  }
}
