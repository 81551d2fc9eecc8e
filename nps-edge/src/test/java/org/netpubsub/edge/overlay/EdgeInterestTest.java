package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.overlay.EdgeInterest.Entry;
import org.netpubsub.edge.overlay.ZnodePaths.Role;

/** Which entries an edge holds; the message-rate strategy. */
class EdgeInterestTest {
  static final Endpoint E = new Endpoint("rome", new InetSocketAddress("127.0.0.1", 1));

  static OverlayView view(Map<String, Boolean> topicsWithPublisher) {
    TreeMap<String, TopicState> t = new TreeMap<>();
    topicsWithPublisher.forEach(
        (name, pub) ->
            t.put(
                name,
                new TopicState(Optional.empty(), 0, pub ? Map.of("x", E) : Map.of(), Map.of())));
    return new OverlayView(t, new TreeMap<>(), 0);
  }

  @Test
  void exactFiltersCreateTopicsWildcardsJoinPublishedOnes() {
    EdgeInterest i = new EdgeInterest(1000);
    i.filter("a/1", true);
    i.filter("w/+", true);
    OverlayView v = view(Map.of("w/x", true, "w/y", false, "z/1", true));
    assertThat(i.desired(v, 0))
        .containsExactlyInAnyOrder(
            new Entry("a/1", Role.SUBSCRIBER), new Entry("w/x", Role.SUBSCRIBER));
    i.filter("w/+", false);
    assertThat(i.desired(v, 0)).containsExactly(new Entry("a/1", Role.SUBSCRIBER));
  }

  @Test
  void publishersExpireAfterTheIdleTime() {
    EdgeInterest i = new EdgeInterest(1000);
    assertThat(i.published("p/1", 0)).isTrue();
    assertThat(i.published("p/1", 500)).isFalse();
    assertThat(i.desired(OverlayView.EMPTY, 1500))
        .containsExactly(new Entry("p/1", Role.PUBLISHER));
    assertThat(i.desired(OverlayView.EMPTY, 1501)).isEmpty();
    assertThat(i.published("p/1", 2000)).isTrue(); // a new entry again
    assertThatThrownBy(() -> new EdgeInterest(0)).hasMessageContaining("positive");
  }

  @Test
  void messageRateStrategyPicksTheQuietestThenFewestTopicsThenName() {
    var s = AssignmentStrategy.MESSAGE_RATE;
    assertThat(s.choose("t", List.of(new BrokerLoad("a", 0, 50), new BrokerLoad("b", 9, 10))))
        .contains("b");
    assertThat(s.choose("t", List.of(new BrokerLoad("a", 3, 10), new BrokerLoad("b", 2, 10))))
        .contains("b");
    assertThat(s.choose("t", List.of(new BrokerLoad("b", 2, 10), new BrokerLoad("a", 2, 10))))
        .contains("a");
    assertThat(
            AssignmentStrategy.TOPIC_COUNT.choose(
                "t", List.of(new BrokerLoad("a", 3, 0), new BrokerLoad("b", 2, 99))))
        .contains("b");
    assertThat(s.choose("t", List.of())).isEmpty();
    assertThat(AssignmentStrategy.named("message-rate")).isSameAs(s);
    assertThatThrownBy(() -> AssignmentStrategy.named("x")).hasMessageContaining("unknown");
  }
}
