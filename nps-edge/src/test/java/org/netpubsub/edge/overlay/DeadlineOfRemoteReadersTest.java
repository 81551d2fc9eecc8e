package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.edge.overlay.OverlayFixture.poll;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.broker.TestClient;

/**
 * A reader's DEADLINE at one site selects the direct path at the publishing site (§2.4.2), on a
 * real ZooKeeper and real Mosquittos: rome's subscriber entry carries its readers' deadline
 * (rewritten when it changes), and paris, with no deadline of its own, sends direct while it is
 * there and releases the path once it is gone.
 */
class DeadlineOfRemoteReadersTest {
  static final Duration T = Duration.ofSeconds(15);

  @TempDir Path dir;

  @Test
  void aRemoteReadersDeadlineSendsDirectUntilItGoes() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      f.routingBroker("rb1");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker a = f.edge("paris", ma); // no --deadline
      EdgeBroker b = f.edge("rome", mb);
      TestClient sub = f.mqttClient(mb, "sub");
      TestClient pub = f.mqttClient(ma, "pub");
      sub.subscribe("d/1", 1);
      poll("ready", T, () -> f.ready("d/1"));
      pub.publish("d/1", "before", 1, false);
      poll("one through the broker", T, () -> sub.received().size() == 1);
      assertThat(a.counters().getOrDefault("sent_direct", 0L)).isZero();
      assertThat(entryDeadline(f)).isEmpty();

      // a reader at rome now requests 300 ms (as a DDS site reports it): the entry is rewritten
      b.onDeadline("d/1", DeadlineTable.Side.READERS, 300L);
      poll("rome's entry carries 300 ms", T, () -> entryDeadline(f).equals(Optional.of(300L)));
      assertThat(b.counters().get("entries_rewritten")).isEqualTo(1);
      poll(
          "paris sends d/1 direct",
          T,
          () -> {
            send(pub, "direct"); // until paris's view has the deadline
            return a.counters().getOrDefault("sent_direct", 0L) > 0;
          });
      assertThat(a.counters().get("direct_admitted")).isEqualTo(1);

      // the reader goes: the entry is rewritten without a deadline, paris leaves the direct path
      b.onDeadline("d/1", DeadlineTable.Side.READERS, null);
      poll("rome's entry without deadline", T, () -> entryDeadline(f).isEmpty());
      assertThat(b.counters().get("entries_rewritten")).isEqualTo(2);
      poll(
          "paris releases the direct path",
          T,
          () -> {
            send(pub, "released");
            return a.counters().getOrDefault("direct_released", 0L) == 1;
          });
      long direct = a.counters().get("sent_direct");
      pub.publish("d/1", "last", 1, false);
      poll(
          "the last one through the broker",
          T,
          () -> sub.received().stream().anyMatch(r -> r.payload().equals("last")));
      assertThat(a.counters().get("sent_direct")).isEqualTo(direct);
    }
  }

  private static void send(TestClient pub, String payload) {
    try {
      pub.publish("d/1", payload, 1, false);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<Long> entryDeadline(OverlayFixture f) {
    return f.tree()
        .topic("d/1")
        .map(t -> t.subscribers().get("rome"))
        .flatMap(Endpoint::deadlineMillis);
  }
}
