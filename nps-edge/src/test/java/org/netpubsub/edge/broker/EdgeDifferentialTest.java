package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.broker.TestClient.Received;

/**
 * One broker vs. edges: the same script of MQTT client actions runs against ONE Mosquitto and
 * against three Mosquittos with agents (spray mode over loopback); every subscriber must receive
 * the same messages (topic, payload, retain flag) in the same order — no loss, no duplicates, no
 * loops. QoS is not compared: QoS 2 crosses edges as QoS 1 (docs/edge.md).
 */
class EdgeDifferentialTest {
  private static final int EDGES = 3;

  /** Where the script's clients connect, and how to wait for the system to catch up. */
  interface Env {
    String uri(int edge);

    /** A subscription of {@code filter} at {@code edge} must be in force. */
    void subscribed(int edge, String filter);

    /** Everything in flight has arrived. */
    void settle();

    /** The edges of {@code c}, settled by {@code settle}. */
    static Env of(EdgeCluster c, Runnable settle) {
      return new Env() {
        @Override
        public String uri(int edge) {
          return c.pahoUri(edge);
        }

        @Override
        public void subscribed(int edge, String filter) {
          c.awaitFilter(edge, filter);
        }

        @Override
        public void settle() {
          settle.run();
        }
      };
    }
  }

  /** The script's result on one Mosquitto. */
  static Map<String, List<Received>> onOneBroker(Path dir) throws Exception {
    try (Mosquitto one = Mosquitto.start(dir)) {
      return run(
          new Env() {
            @Override
            public String uri(int edge) {
              return one.pahoUri();
            }

            @Override
            public void subscribed(int edge, String filter) {}

            @Override
            public void settle() {}
          });
    }
  }

  @Test
  void edgesDeliverExactlyWhatOneBrokerDelivers(@TempDir Path dir) throws Exception {
    Map<String, List<Received>> single = onOneBroker(dir);
    Map<String, List<Received>> edges;
    try (EdgeCluster c = EdgeCluster.start(dir, EDGES)) {
      edges = run(Env.of(c, c::settle));
      for (EdgeAgent a : c.agents) {
        assertThat(a.stats().droppedTotal()).as(a.edge() + " drops " + a.stats()).isZero();
        assertThat(a.stats().forwarded()).as(a.edge() + " forwards").isPositive();
      }
    }
    assertThat(edges).isEqualTo(single);
    // and the script means what it says: spot checks against the single broker
    // the late subscriber finds the retained message, flagged retained; the later one finds none
    assertThat(single.get("late1")).startsWith(new Received("sensors/kitchen/temp", "22", true));
    assertThat(single.get("late2").stream().map(Received::payload))
        .containsExactly("b1", "b2", "b3", "b4", "b5", "q2");
    assertThat(single.get("s2").stream().map(Received::payload)) // unsubscribed midway
        .containsExactly("21", "19", "40", "22");
    assertThat(single.get("s3").stream().map(Received::payload))
        .containsExactly("21", "22", "", "b1", "b2", "b3", "b4", "b5", "q2");
  }

  /** The script: returns, per subscriber, what it received (sync markers left out). */
  static Map<String, List<Received>> run(Env env) throws Exception {
    Script s = new Script(env);
    try {
      s.subscriber("s1", 0, "sensors/+/temp", 1);
      s.subscriber("s2", 1, "sensors/#", 0);
      s.subscriber("s3", 2, "sensors/kitchen/temp", 1);
      s.subscriber("s4", 1, "#", 0);
      s.publisher("p1", 0);
      s.publisher("p2", 2);
      s.publisher("p3", 1);

      s.publish("p1", "sensors/kitchen/temp", "21", 1, false);
      s.publish("p2", "sensors/hall/temp", "19", 0, false);
      s.publish("p3", "sensors/kitchen/humidity", "40", 1, false);
      s.publish("p1", "other/x", "x", 0, false);
      s.publish("p2", "sensors/kitchen/temp", "22", 1, true);
      s.subscriber("late1", 1, "sensors/kitchen/temp", 1);
      s.unsubscribe("s2", 1, "sensors/#");
      s.publish("p1", "sensors/hall/temp", "20", 1, false);
      s.publish("p3", "sensors/kitchen/temp", "", 1, true); // clears the retained message
      s.subscriber("late2", 0, "sensors/+/temp", 0);
      s.burst("p1", "sensors/kitchen/temp", 5);
      s.publish("p2", "other/y", "y", 1, false);
      s.publish("p3", "sensors/kitchen/temp", "q2", 2, false); // arrives at QoS 1 across edges
      return s.results();
    } finally {
      s.close();
    }
  }

  /** Clients by name; after each step, waits for sync markers so both runs observe alike. */
  private static final class Script implements AutoCloseable {
    private static final String SYNC = "nps-sync/";
    private final Env env;
    private final Map<String, TestClient> subscribers = new LinkedHashMap<>();
    private final Map<String, TestClient> publishers = new LinkedHashMap<>();
    private final Map<String, Integer> markers = new LinkedHashMap<>();
    private int step;

    Script(Env env) {
      this.env = env;
    }

    void subscriber(String name, int edge, String filter, int qos) throws Exception {
      TestClient c = new TestClient(env.uri(edge), name);
      subscribers.put(name, c);
      markers.put(name, 0);
      c.subscribe(SYNC + name, 1);
      env.subscribed(edge, SYNC + name);
      env.settle();
      c.subscribe(filter, qos);
      env.subscribed(edge, filter);
    }

    void unsubscribe(String name, int edge, String filter) throws Exception {
      subscribers.get(name).unsubscribe(filter);
    }

    void publisher(String name, int edge) throws Exception {
      publishers.put(name, new TestClient(env.uri(edge), name));
    }

    void publish(String pub, String topic, String payload, int qos, boolean retain)
        throws Exception {
      publishers.get(pub).publish(topic, payload, qos, retain);
      sync(pub);
    }

    void burst(String pub, String topic, int n) throws Exception {
      for (int i = 1; i <= n; i++) {
        publishers.get(pub).publish(topic, "b" + i, 0, false);
      }
      sync(pub);
    }

    /**
     * Markers from {@code pub} travel the path its messages took: once they arrive, so did those.
     */
    private void sync(String pub) throws Exception {
      step++;
      String mark = "m" + step;
      for (String sub : subscribers.keySet()) {
        publishers.get(pub).publish(SYNC + sub, mark, 1, false);
      }
      for (Map.Entry<String, TestClient> en : subscribers.entrySet()) {
        Poll.until(
            en.getKey() + " receives " + mark,
            Duration.ofSeconds(10),
            () ->
                en.getValue().received().stream()
                    .anyMatch(
                        r -> r.topic().equals(SYNC + en.getKey()) && r.payload().equals(mark)));
      }
      env.settle();
    }

    Map<String, List<Received>> results() {
      Map<String, List<Received>> out = new LinkedHashMap<>();
      subscribers.forEach(
          (name, c) -> {
            List<Received> mine = new ArrayList<>();
            for (Received r : c.received()) {
              if (!r.topic().startsWith(SYNC)) {
                mine.add(r);
              }
            }
            out.put(name, mine);
          });
      return out;
    }

    @Override
    public void close() {
      subscribers.values().forEach(TestClient::close);
      publishers.values().forEach(TestClient::close);
    }
  }
}
