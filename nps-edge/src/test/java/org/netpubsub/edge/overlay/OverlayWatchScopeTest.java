package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.edge.overlay.OverlayFixture.poll;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.broker.TestClient;

/**
 * What each broker caches (paper Algorithm 1; docs/overlay.md): an edge only the topics it holds
 * entries for, a routing broker only the topics assigned to it, while the routing brokers' index
 * lists every topic.
 */
class OverlayWatchScopeTest {
  static final Duration T = Duration.ofSeconds(20);

  @TempDir Path dir;

  @Test
  void eachBrokerCachesOnlyTheTopicsItHasBusinessWith() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper()) {
      RoutingBroker rb1 = f.routingBroker("rb1");
      RoutingBroker rb2 = f.routingBroker("rb2");
      Mosquitto ma = f.mosquitto();
      Mosquitto mb = f.mosquitto();
      EdgeBroker paris = f.edge("paris", ma);
      EdgeBroker rome = f.edge("rome", mb);
      TestClient atRome = f.mqttClient(mb, "sub-rome");
      TestClient atParis = f.mqttClient(ma, "sub-paris");
      atRome.subscribe("x/1", 1);
      atRome.subscribe("w/#", 1);
      atParis.subscribe("y/1", 1);
      atParis.subscribe("y/2", 1);
      poll("all assigned", T, () -> f.ready("x/1") && f.ready("y/1") && f.ready("y/2"));

      poll("paris caches y/*", T, () -> topics(paris.view()).equals(Set.of("y/1", "y/2")));
      poll("rome caches x/1", T, () -> topics(rome.view()).equals(Set.of("x/1")));
      for (RoutingBroker rb : new RoutingBroker[] {rb1, rb2}) {
        poll(
            rb.name() + " caches its assigned topics",
            T,
            () -> topics(rb.view()).equals(assignedTo(f, rb.name())));
        poll(
            "the index of " + rb.name(),
            T,
            () -> topics(rb.index()).containsAll(Set.of("x/1", "y/1", "y/2")));
      }
      assertThat(assignedTo(f, "rb1")).isNotEqualTo(assignedTo(f, "rb2")); // 3 topics, 2 brokers

      // a wildcard joins a topic published elsewhere: rome caches it then, paris as its publisher
      TestClient pub = f.mqttClient(ma, "pub-paris");
      pub.publish("w/a", "first", 1, false);
      poll("rome caches w/a", T, () -> topics(rome.view()).equals(Set.of("x/1", "w/a")));
      poll("paris caches w/a", T, () -> topics(paris.view()).contains("w/a"));

      // the last local subscriber leaves: the entry goes, and the cache with it
      atRome.unsubscribe("x/1");
      poll("rome dropped x/1", T, () -> topics(rome.view()).equals(Set.of("w/a")));
    }
  }

  private static Set<String> topics(OverlayView v) {
    return new TreeSet<>(v.topics().keySet());
  }

  private static Set<String> assignedTo(OverlayFixture f, String broker) {
    Set<String> out = new TreeSet<>();
    f.tree()
        .topics()
        .forEach(
            (t, s) -> {
              if (s.assignment().filter(a -> a.broker().equals(broker)).isPresent()) {
                out.add(t);
              }
            });
    return out;
  }
}
