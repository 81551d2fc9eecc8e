package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.client.ControllerClient;
import org.netpubsub.client.Delivery;
import org.netpubsub.client.Poll;
import org.netpubsub.client.Publisher;
import org.netpubsub.client.Subscriber;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.api.ControllerApi;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.local.LocalNetwork;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;

/**
 * The local network ({@code nps local}) end to end, no root: the unchanged Java client library
 * attaches, subscribes and publishes; every subscriber receives exactly the events its filter
 * matches, through the flows the controller installed on the simulated switches, and the switches
 * drop what nobody asked for.
 */
class LocalNetworkTest {
  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final String[] SYMBOLS = {"IBM", "AAPL", "MSFT"};

  NetworkController controller;
  PubSubService service;
  LocalNetwork net;
  ControllerApi api;
  Schema schema;

  @BeforeEach
  void start() throws Exception {
    schema = SchemaFiles.load(java.nio.file.Path.of("../examples/schemas/quotes.yaml"));
    controller =
        NetworkController.start(
            ControllerConfig.defaults().withPort("127.0.0.1", 0).withProbeInterval(500));
    service = PubSubService.attach(controller, new SpatialIndex(schema, 24), PubSubLimits.DEFAULTS);
    net = LocalNetwork.start(controller, service, TIMEOUT);
    api = ControllerApi.start(controller, Optional.of(service), new InetSocketAddress("::1", 0));
  }

  @AfterEach
  void stop() {
    if (api != null) {
      api.close();
    }
    if (net != null) {
      net.close();
    }
    service.close();
    controller.close();
  }

  @Test
  void everySubscriberReceivesExactlyItsEventsAndTheSwitchesDropTheRest() throws Exception {
    String url = "http://[::1]:" + api.address().getPort();
    // Filters on price, the index's first dimension, so their covers are tight and the switches
    // have events to drop; a volume bound would need every price bit before it (a cover of all).
    List<String> filters = List.of("price > 80000", "symbol == \"IBM\" && price < 20000");
    try (ControllerClient client = ControllerClient.of(url)) {
      assertThat(client.pubsubConfig().localSwitch()).isEqualTo(net.switchAddress());
      List<Subscriber> subs = new ArrayList<>();
      for (String f : filters) {
        subs.add(Subscriber.builder(client).filter(f).build());
      }
      List<Event> sent = new ArrayList<>();
      Random r = new Random(7);
      try (Publisher pub = Publisher.builder(client).build()) {
        assertThat(net.hosts()).as("each client attached as its own host").hasSize(3);
        assertThat(net.contentFlows().values().stream().mapToInt(Integer::intValue).sum())
            .isPositive();
        for (int i = 0; i < 300; i++) {
          sent.add(
              pub.publish(
                  Event.builder(schema)
                      .set("symbol", SYMBOLS[r.nextInt(SYMBOLS.length)])
                      .set("price", r.nextInt(100_001))
                      .set("volume", r.nextInt(1000))
                      .set("exchange", "NYSE")
                      .build()));
        }
        // The local switch is one thread and may lag behind the burst; the advertisement's flows
        // must stand until it has run every event through them.
        Poll.until(
            "the local switch to take every event",
            TIMEOUT,
            () -> net.counters().events.get() + net.counters().malformed.get() >= sent.size());
      }
      for (int s = 0; s < subs.size(); s++) {
        Dnf dnf = Normalizer.toDnf(FilterParser.parse(schema, filters.get(s)));
        Set<Long> want = new HashSet<>();
        for (Event e : sent) {
          if (FilterEvaluator.matches(dnf, e)) {
            want.add(e.sequence());
          }
        }
        assertThat(want).isNotEmpty();
        Set<Long> got = new HashSet<>();
        Subscriber sub = subs.get(s);
        Poll.until(
            want.size() + " deliveries for " + filters.get(s),
            TIMEOUT,
            () -> {
              Delivery d;
              try {
                while ((d = sub.poll(Duration.ofMillis(10))) != null) {
                  assertThat(got.add(d.event().sequence())).as("no duplicate").isTrue();
                }
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
              return got.size() >= want.size();
            });
        assertThat(got).isEqualTo(want);
        assertThat(sub.stats().malformed()).isZero();
        sub.close();
      }
      assertThat(net.counters().events.get()).isEqualTo(sent.size());
      assertThat(net.counters().unmatched.get())
          .as("events no subscriber wants stop in the switches")
          .isPositive();
    }
  }
}
