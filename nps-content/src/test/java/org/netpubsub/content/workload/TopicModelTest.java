package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;

/** The MQTT-style topic workload: typed topics, and filters of every kind that match events. */
class TopicModelTest {
  @Test
  void filtersUseEveryKindOfTopicFilterAndMatchEvents() {
    TopicModel m = new TopicModel();
    Workload w =
        m.generate(new WorkloadSpec(3, 400, 400, 4, HostAssignment.ROUND_ROBIN, Arrival.NONE));
    List<String> texts = w.subscriptions().stream().map(Subscription::filter).toList();
    assertThat(texts).anyMatch(t -> t.contains("/+"));
    assertThat(texts).anyMatch(t -> t.contains("/#\"") && !t.contains("&&"));
    assertThat(texts).anyMatch(t -> t.contains("/#\" && value >"));
    assertThat(texts).anyMatch(t -> t.contains("=="));
    List<Event> events = w.events().toList();
    int matched = 0;
    for (String t : texts) {
      Filter f = FilterParser.parse(m.schema(), t);
      matched += events.stream().anyMatch(e -> FilterEvaluator.matches(f, e)) ? 1 : 0;
    }
    assertThat(matched).as("filters that match some event").isGreaterThan(texts.size() / 2);
  }
}
