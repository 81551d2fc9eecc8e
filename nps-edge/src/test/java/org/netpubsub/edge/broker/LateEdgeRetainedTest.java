package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.broker.TestClient.Received;

/**
 * Retained messages for an edge that registers after they were published: an edge started late (its
 * agent asks an existing edge to replay its broker's retained store) must show a late subscriber
 * exactly what one broker shows; so must a retained update published after the replay, and a second
 * late subscriber.
 */
class LateEdgeRetainedTest {
  private static final Comparator<Received> BY_TOPIC = Comparator.comparing(Received::topic);

  /** One step of the script that differs between one broker and edges. */
  private interface Step {
    void run() throws Exception;
  }

  /** What the two late subscribers saw, each sorted by topic (retained order is unspecified). */
  private record Seen(List<Received> late1, List<Received> late2) {}

  @Test
  void aLateEdgeShowsWhatOneBrokerShows(@TempDir Path dir) throws Exception {
    Seen single;
    try (Mosquitto one = Mosquitto.start(dir)) {
      single = script(e -> one.pahoUri(), () -> {}, () -> {});
    }
    Seen edges;
    try (EdgeCluster c = EdgeCluster.start(dir, 2)) {
      edges =
          script(
              c::pahoUri,
              c::settle,
              () -> {
                // settle alone does not say the publishing agents have seen every publish yet
                // (Mosquitto acknowledges the client before it delivers to the agent): one seen
                // after the late edge registered reaches it live, and its replay is then stale
                Poll.until(
                    "the six retained publishes forwarded, each to the one other edge",
                    Duration.ofSeconds(10),
                    () -> c.agents.stream().mapToLong(a -> a.stats().forwarded()).sum() == 6);
                c.settle();
                int late = c.addEdge(); // registers after every retained publish
                EdgeAgent a = c.agents.get(late);
                Poll.until(
                    "the late edge's replay completes",
                    Duration.ofSeconds(20),
                    () -> a.stats().reliable("replay_complete") >= 1);
                AgentStats stats = a.stats();
                assertThat(stats.reliable("replay_published")).as("%s", stats).isEqualTo(3);
                assertThat(stats.reliable("replay_stale")).as("%s", stats).isZero();
              });
      for (EdgeAgent a : c.agents) {
        assertThat(a.stats().droppedTotal()).as(a.edge() + " drops " + a.stats()).isZero();
      }
    }
    assertThat(edges).isEqualTo(single);
    // and the script means what it says: the single broker's view
    assertThat(single.late1())
        .containsExactly(
            new Received("r/a", "1b", true),
            new Received("r/b", "2", true),
            new Received("r/d", "4", true));
    assertThat(single.late2())
        .containsExactly(
            new Received("r/a", "1b", true),
            new Received("r/b", "2b", true),
            new Received("r/d", "4", true));
  }

  /**
   * Publishers at edges 0 and 1, then {@code lateEdge} (edge 2 exists from then on), late
   * subscribers there. {@code settle}: what was sent has arrived.
   */
  private static Seen script(IntFunction<String> uri, Step settle, Step lateEdge) throws Exception {
    try (TestClient p0 = new TestClient(uri.apply(0), "p0");
        TestClient p1 = new TestClient(uri.apply(1), "p1")) {
      p0.publish("r/a", "1", 1, true);
      p0.publish("r/b", "2", 1, true);
      p0.publish("r/c", "3", 0, true);
      settle.run(); // across edges, "later" needs the earlier publishes to have arrived
      p1.publish("r/d", "4", 1, true);
      p1.publish("r/c", "", 1, true); // clears r/c everywhere
      p1.publish("r/a", "1b", 1, true); // replaces p0's r/a
      p0.publish("r/x", "not retained", 1, false);
      settle.run();
      lateEdge.run();
      List<Received> late1;
      try (TestClient s = new TestClient(uri.apply(2), "late1")) {
        s.subscribe("r/#", 1);
        Poll.until(
            "late1 has the retained", Duration.ofSeconds(10), () -> s.received().size() >= 3);
        p0.publish("r/b", "2b", 1, true); // live, after the replay
        Poll.until(
            "late1 gets the update",
            Duration.ofSeconds(10),
            () -> s.received().stream().anyMatch(r -> r.payload().equals("2b")));
        settle.run();
        late1 = s.received().subList(0, 3).stream().sorted(BY_TOPIC).toList();
      }
      try (TestClient s = new TestClient(uri.apply(2), "late2")) {
        s.subscribe("r/#", 1);
        Poll.until(
            "late2 has the retained", Duration.ofSeconds(10), () -> s.received().size() >= 3);
        settle.run();
        return new Seen(late1, s.received().stream().sorted(BY_TOPIC).toList());
      }
    }
  }
}
