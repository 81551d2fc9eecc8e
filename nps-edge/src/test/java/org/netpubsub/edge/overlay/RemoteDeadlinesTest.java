package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Subscriber entries' {@code deadline_ms}: the JSON, and the deadline per topic of a view. */
class RemoteDeadlinesTest {
  private static final InetSocketAddress A = new InetSocketAddress("10.0.0.1", 9000);

  private static byte[] json(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void deadlineIsOptionalInTheEntryAndRoundTrips() {
    Endpoint with = new Endpoint("rome", A, Optional.of(250L));
    assertThat(ZnodeData.endpoint(ZnodeData.endpoint(with))).isEqualTo(with);
    assertThat(new String(ZnodeData.endpoint(new Endpoint("rome", A)), StandardCharsets.UTF_8))
        .doesNotContain("deadline_ms");
    assertThat(ZnodeData.endpoint(json("{\"site\":\"rome\",\"address\":\"10.0.0.1:9000\"}")))
        .isEqualTo(new Endpoint("rome", A)); // an older edge's entry
    for (String bad : new String[] {"0", "-5", "1.5", "\"100\"", "null", "true"}) {
      assertThatThrownBy(
              () ->
                  ZnodeData.endpoint(
                      json(
                          "{\"site\":\"rome\",\"address\":\"10.0.0.1:9000\",\"deadline_ms\":"
                              + bad
                              + "}")))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("deadline_ms");
    }
  }

  @Test
  void shortestDeadlineOfOtherSitesPerTopicAndBadEntriesCounted() {
    Map<String, byte[]> nodes = new HashMap<>();
    nodes.put("/topics/t", null);
    nodes.put("/topics/t/sub/rome", ZnodeData.endpoint(new Endpoint("rome", A, Optional.of(300L))));
    nodes.put("/topics/t/sub/oslo", ZnodeData.endpoint(new Endpoint("oslo", A, Optional.of(200L))));
    nodes.put( // this site's own reader: its deadline is the local table's business
        "/topics/t/sub/paris2", ZnodeData.endpoint(new Endpoint("paris", A, Optional.of(50L))));
    nodes.put("/topics/t/pub/lima", ZnodeData.endpoint(new Endpoint("lima", A, Optional.of(10L))));
    nodes.put("/topics/u", null);
    nodes.put("/topics/u/sub/rome", ZnodeData.endpoint(new Endpoint("rome", A)));
    nodes.put("/topics/v", null);
    nodes.put(
        "/topics/v/sub/rome",
        json("{\"site\":\"rome\",\"address\":\"10.0.0.1:9000\",\"deadline_ms\":-1}"));
    OverlayView v = OverlayView.of(nodes, p -> 0, e -> null);
    assertThat(RemoteDeadlines.of(v, "paris")).isEqualTo(Map.of("t", 200L));
    assertThat(v.malformed()).isEqualTo(1); // the bad deadline: counted, the entry dropped
    assertThat(v.topic("v").orElseThrow().subscribers()).isEmpty();
  }
}
