package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** {@link RecentSubscribers} against a naive twin that keeps every view it was shown. */
class RecentSubscribersProperties {
  private static final long GRACE = 5_000;
  private static final List<String> TOPICS = List.of("t/1", "t/2");
  private static final List<String> EDGES = List.of("self", "rome", "oslo");

  private record Shown(long at, OverlayView view) {}

  /**
   * The naive answer: the last view that showed the edge on the topic must have shown it at {@code
   * from}, and be the latest view or be followed by one (the first to lack it) at most the grace
   * period before {@code now}.
   */
  private static boolean naive(
      List<Shown> history, String topic, InetSocketAddress from, long now) {
    for (String edge : EDGES) {
      if (edge.equals("self")) {
        continue;
      }
      for (int i = history.size() - 1; i >= 0; i--) {
        TopicState t = history.get(i).view().topics().get(topic);
        Endpoint e = t == null ? null : t.subscribers().get(edge);
        if (e == null) {
          continue;
        }
        boolean latest = i == history.size() - 1;
        if (e.address().equals(from) && (latest || now - history.get(i + 1).at() <= GRACE)) {
          return true;
        }
        break;
      }
    }
    return false;
  }

  private static OverlayView randomView(Random r) {
    TreeMap<String, TopicState> topics = new TreeMap<>();
    for (String topic : TOPICS) {
      Map<String, Endpoint> subs = new HashMap<>();
      for (String edge : EDGES) {
        if (r.nextInt(3) > 0) {
          subs.put(edge, new Endpoint(edge, address(r.nextInt(2))));
        }
      }
      if (r.nextInt(4) > 0) {
        topics.put(topic, new TopicState(Optional.empty(), 0, Map.of(), subs));
      }
    }
    return new OverlayView(topics, new TreeMap<>(), 0);
  }

  private static InetSocketAddress address(int i) {
    return new InetSocketAddress("127.0.0.1", 7000 + i);
  }

  @Property(tries = 500)
  void answersExactlyAsTheNaiveTwin(@ForAll long seed) {
    Random r = new Random(seed);
    RecentSubscribers recent = new RecentSubscribers(GRACE);
    List<Shown> history = new ArrayList<>();
    long now = 0;
    for (int step = 0; step < 30; step++) {
      now += r.nextInt(4_000);
      OverlayView v = randomView(r);
      recent.observe(v, now);
      history.add(new Shown(now, v));
      for (int q = 0; q < 4; q++) {
        now += r.nextInt(3_000);
        String topic = TOPICS.get(r.nextInt(TOPICS.size()));
        InetSocketAddress from = address(r.nextInt(3)); // 7002: never registered
        assertThat(recent.asker(topic, from, "self", now).isPresent())
            .as("step %d, %s from %s at %d", step, topic, from, now)
            .isEqualTo(naive(history, topic, from, now));
      }
      assertThat(recent.size()).isLessThanOrEqualTo(TOPICS.size() * EDGES.size());
    }
  }

  @Example
  void anEdgeTheViewLostIsAnsweredForTheGracePeriodOnly() {
    RecentSubscribers recent = new RecentSubscribers(GRACE);
    Endpoint rome = new Endpoint("rome", address(0));
    recent.observe(view(Map.of("rome", rome)), 1_000);
    recent.observe(view(Map.of()), 60_000); // shown until now, however long ago the view came
    assertThat(recent.asker("t/1", address(0), "self", 60_000 + GRACE)).contains("rome");
    assertThat(recent.asker("t/1", address(1), "self", 60_000)).isEmpty(); // another address
    assertThat(recent.asker("t/2", address(0), "self", 60_000)).isEmpty(); // another topic
    assertThat(recent.asker("t/1", address(0), "self", 60_001 + GRACE)).isEmpty();
    recent.observe(view(Map.of()), 60_001 + GRACE);
    assertThat(recent.size()).isZero();
  }

  private static OverlayView view(Map<String, Endpoint> subs) {
    TreeMap<String, TopicState> topics = new TreeMap<>();
    topics.put("t/1", new TopicState(Optional.empty(), 0, Map.of(), subs));
    return new OverlayView(topics, new TreeMap<>(), 0);
  }
}
