package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.nbi.NbiTopic;

class TopicCountsTest {
  private static NbiTopic port(int p) {
    return NbiTopic.parse("udp_dst=" + p);
  }

  @Test
  void countsEachMatchedTopicAndListsRegisteredOnesFromZero() {
    TopicCounts c = new TopicCounts(8);
    c.count(List.of(port(1), port(2)));
    c.count(List.of(port(1)));
    c.count(List.of());
    assertThat(c.snapshot(List.of(port(1), port(3))))
        .containsExactly(
            Map.entry("udp_dst=1", 2L), Map.entry("udp_dst=2", 1L), Map.entry("udp_dst=3", 0L));
  }

  @Test
  void topicsBeyondTheCapAreCountedAsOther() {
    TopicCounts c = new TopicCounts(2);
    for (int p = 1; p <= 5; p++) {
      c.count(List.of(port(p)));
    }
    c.count(List.of(port(1), port(5)));
    // the first two keep their names; the other three topics' four packet-ins are "other"
    assertThat(c.snapshot(List.of(port(9))))
        .containsExactly(
            Map.entry(TopicCounts.OTHER, 4L),
            Map.entry("udp_dst=1", 2L),
            Map.entry("udp_dst=2", 1L));
  }
}
