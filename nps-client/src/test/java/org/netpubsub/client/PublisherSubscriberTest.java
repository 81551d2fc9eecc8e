package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.schema.Schema;

/**
 * Publisher → loopback UDP → Subscriber, with the destination override standing in for the last
 * switch's rewrite of the content address to the subscriber's address and port.
 */
class PublisherSubscriberTest {
  private static final Inet6Address LOOPBACK = Ipv6Text.parse("::1");
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private final Schema schema = TestSchemas.quotes();
  private StubController stub;
  private ControllerClient client;

  @BeforeEach
  void start() throws Exception {
    stub = StubController.start(schema, TestSchemas.INDEX_LENGTH);
    client = ControllerClient.of(stub.url());
  }

  @AfterEach
  void stop() {
    client.close();
    stub.close();
  }

  private Event quote(String symbol, long price, long volume) {
    return Event.builder(schema)
        .set("symbol", symbol)
        .set("price", price)
        .set("volume", volume)
        .payload(new byte[] {1, 2, 3})
        .build();
  }

  private Publisher publisherTo(Subscriber sub, String advertisement) throws Exception {
    return Publisher.builder(client)
        .host(LOOPBACK)
        .advertisement(advertisement)
        .destination(new InetSocketAddress(LOOPBACK, sub.port()))
        .build();
  }

  @Test
  void deliversMatchingEventsWithHeaderAndPositiveLatency() throws Exception {
    try (Subscriber sub = Subscriber.builder(client).host(LOOPBACK).filter("price > 500").build();
        Publisher pub = publisherTo(sub, "true")) {
      assertThat(sub.port()).isPositive();
      assertThat(stub.subscriptions().get(sub.subscription().id()).get("port").asInt())
          .isEqualTo(sub.port());
      assertThat(stub.subscriptions().get(sub.subscription().id()).get("host").asText())
          .isEqualTo("::1");
      Event sent1 = pub.publish(quote("ACME", 600, 7));
      Event sent2 = pub.publish(quote("ACME", 700, 8));
      Delivery d1 = sub.poll(TIMEOUT);
      Delivery d2 = sub.poll(TIMEOUT);
      assertThat(d1.event()).isEqualTo(sent1);
      assertThat(d2.event()).isEqualTo(sent2);
      assertThat(d1.event().publisherId()).isEqualTo(pub.publisherId());
      assertThat(d1.event().sequence()).isEqualTo(1);
      assertThat(d2.event().sequence()).isEqualTo(2);
      assertThat(d1.event().payload()).containsExactly(1, 2, 3);
      assertThat(d1.latencyNanos()).isPositive();
      assertThat(d1.receivedAtNanos()).isEqualTo(d1.event().timestampNanos() + d1.latencyNanos());
      assertThat(pub.published()).isEqualTo(2);
    }
  }

  @Test
  void latencyIsTheReceiveClockMinusThePublisherTimestamp() throws Exception {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    try (Subscriber sub =
            Subscriber.builder(client)
                .host(LOOPBACK)
                .filter("true")
                .clock(InstantSource.fixed(t.plusNanos(1_234_567)))
                .build();
        Publisher pub =
            Publisher.builder(client)
                .host(LOOPBACK)
                .clock(InstantSource.fixed(t))
                .publisherId(42)
                .destination(new InetSocketAddress(LOOPBACK, sub.port()))
                .build()) {
      pub.publish(quote("X", 1, 1));
      Delivery d = sub.poll(TIMEOUT);
      assertThat(d.event().timestampNanos()).isEqualTo(t.getEpochSecond() * 1_000_000_000L);
      assertThat(d.event().publisherId()).isEqualTo(42);
      assertThat(d.latencyNanos()).isEqualTo(1_234_567);
    }
  }

  @Test
  void falsePositivesAreDroppedAndCounted() throws Exception {
    List<Delivery> got = new CopyOnWriteArrayList<>();
    try (Subscriber sub =
            Subscriber.builder(client)
                .host(LOOPBACK)
                .filter("price > 500 && symbol prefix \"AC\"")
                .onDelivery(got::add)
                .build();
        Publisher pub = publisherTo(sub, "true")) {
      pub.publish(quote("ACME", 100, 1)); // price outside
      pub.publish(quote("ZZZ", 900, 1)); // symbol outside
      pub.publish(quote("ACME", 900, 1)); // matches
      Poll.until("3 datagrams", TIMEOUT, () -> sub.stats().received() == 3);
      Poll.until("1 delivery", TIMEOUT, () -> got.size() == 1);
      assertThat(got.get(0).event().intValue(1)).isEqualTo(900);
      assertThat(sub.stats()).isEqualTo(new SubscriberStats(3, 1, 2, 0, 0));
    }
  }

  @Test
  void theSubscriberReportsReceivedAndFalsePositivesToTheController() throws Exception {
    try (Subscriber sub =
            Subscriber.builder(client)
                .host(LOOPBACK)
                .filter("price > 500")
                .statsInterval(Duration.ofMillis(50))
                .build();
        Publisher pub = publisherTo(sub, "true")) {
      String id = sub.subscription().id();
      pub.publish(quote("A", 100, 1)); // a false positive
      pub.publish(quote("A", 900, 1));
      Poll.until(
          "a report of 2 received, 1 false positive",
          TIMEOUT,
          () ->
              stub.stats().containsKey(id)
                  && stub.stats().get(id).path("received").asLong() == 2
                  && stub.stats().get(id).path("false_positives").asLong() == 1);
    }
    // without periodic reports, closing sends the last counts before unsubscribing
    Subscriber quiet =
        Subscriber.builder(client)
            .host(LOOPBACK)
            .filter("price > 500")
            .statsInterval(Duration.ofHours(1))
            .build();
    String id = quiet.subscription().id();
    try (Publisher pub = publisherTo(quiet, "true")) {
      pub.publish(quote("A", 1, 1));
      Poll.until("1 datagram", TIMEOUT, () -> quiet.stats().received() == 1);
    }
    assertThat(stub.stats()).doesNotContainKey(id);
    quiet.close();
    assertThat(stub.stats().get(id).path("false_positives").asLong()).isEqualTo(1);
    assertThatThrownBy(() -> Subscriber.builder(client).statsInterval(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void malformedDatagramsAreCountedAndTheThreadKeepsReceiving() throws Exception {
    try (Subscriber sub = Subscriber.builder(client).host(LOOPBACK).filter("true").build();
        Publisher pub = publisherTo(sub, "true");
        DatagramSocket raw = new DatagramSocket()) {
      InetSocketAddress to = new InetSocketAddress(LOOPBACK, sub.port());
      byte[] good = new EventCodec(schema).encode(quote("A", 1, 1));
      byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
      byte[] otherSchema = good.clone();
      otherSchema[2] ^= 1; // schema id
      for (byte[] bad : List.of(new byte[0], new byte[] {9}, truncated, otherSchema)) {
        raw.send(new DatagramPacket(bad, bad.length, to));
      }
      pub.publish(quote("B", 2, 2));
      Delivery d = sub.poll(TIMEOUT);
      assertThat(d.event().stringValue(0)).isEqualTo("B");
      Poll.until("4 malformed", TIMEOUT, () -> sub.stats().malformed() == 4);
      assertThat(sub.stats().received()).isEqualTo(5);
      assertThat(sub.stats().delivered()).isEqualTo(1);
    }
  }

  @Test
  void eventsOutsideTheAdvertisementAreRefused() throws Exception {
    try (Subscriber sub = Subscriber.builder(client).host(LOOPBACK).filter("true").build();
        Publisher pub = publisherTo(sub, "price < 100")) {
      assertThatThrownBy(() -> pub.publish(quote("A", 500, 1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("outside the advertisement 'price < 100'");
      assertThat(pub.published()).isZero();
      Event sent = pub.publish(quote("A", 50, 1));
      assertThat(sent.sequence()).isEqualTo(1);
      assertThat(sub.poll(TIMEOUT).event()).isEqualTo(sent);
      assertThat(sub.stats().received()).isEqualTo(1);
    }
  }

  @Test
  void anEventOfAnotherSchemaIsRefused() throws Exception {
    Schema other = Schema.builder("other").intAttribute("x", 0, 9).build();
    try (Subscriber sub = Subscriber.builder(client).host(LOOPBACK).filter("true").build();
        Publisher pub = publisherTo(sub, "true")) {
      Event e = Event.builder(other).set("x", 1).build();
      assertThatThrownBy(() -> pub.publish(e))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("schema");
    }
  }

  @Test
  void closeUnsubscribesAndUnadvertises() throws Exception {
    Subscriber sub = Subscriber.builder(client).host(LOOPBACK).filter("true").build();
    Publisher pub = publisherTo(sub, "true");
    assertThat(stub.subscriptions()).containsOnlyKeys(sub.subscription().id());
    assertThat(stub.advertisements()).containsOnlyKeys(pub.advertisement().id());
    assertThat(stub.advertisements().get(pub.advertisement().id()).get("filter").asText())
        .isEqualTo("true");
    pub.close();
    sub.close();
    sub.close(); // idempotent
    assertThat(stub.subscriptions()).isEmpty();
    assertThat(stub.advertisements()).isEmpty();
    assertThat(stub.requests())
        .contains(
            "DELETE /v1/subscriptions/" + sub.subscription().id(),
            "DELETE /v1/advertisements/" + pub.advertisement().id());
    assertThatThrownBy(() -> pub.publish(quote("A", 1, 1)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void filtersAreCheckedLocallyBeforeTheControllerSeesThem() {
    assertThatThrownBy(() -> Subscriber.builder(client).host(LOOPBACK).filter("prize > 5").build())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("price");
    assertThatThrownBy(
            () -> Subscriber.builder(client).host(LOOPBACK).filter("count() > 5 over 1s").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("aggregates");
    assertThat(stub.requests()).containsOnly("GET /v1/pubsub");
  }

  @Test
  void aHostAddressNotOnThisMachineIsAClearError() {
    assertThatThrownBy(() -> Publisher.builder(client).host(Ipv6Text.parse("2001:db8::77")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2001:db8::77");
    assertThat(stub.advertisements()).isEmpty();
  }

  @Test
  void closeLingersAfterTheLastEventBeforeUnadvertising() throws Exception {
    Publisher pub =
        Publisher.builder(client)
            .host(LOOPBACK)
            .linger(java.time.Duration.ofMillis(300))
            .destination(new InetSocketAddress(LOOPBACK, 9))
            .build();
    pub.publish(quote("X", 1, 1));
    long sent = System.nanoTime();
    pub.close();
    assertThat(System.nanoTime() - sent).isGreaterThanOrEqualTo(300_000_000L);
    assertThat(stub.advertisements()).isEmpty();
    // nothing sent: nothing in flight, no wait
    Publisher idle =
        Publisher.builder(client).host(LOOPBACK).linger(java.time.Duration.ofHours(1)).build();
    idle.close();
    assertThat(stub.advertisements()).isEmpty();
    assertThatThrownBy(() -> Publisher.builder(client).linger(java.time.Duration.ofMillis(-1)))
        .hasMessageContaining("negative");
  }

  @Test
  void aFailingCallbackDoesNotStopTheReceiver() throws Exception {
    List<Long> prices = new CopyOnWriteArrayList<>();
    try (Subscriber sub =
            Subscriber.builder(client)
                .host(LOOPBACK)
                .filter("true")
                .onDelivery(
                    d -> {
                      prices.add(d.event().intValue(1));
                      if (prices.size() == 1) {
                        throw new IllegalStateException("application bug");
                      }
                    })
                .build();
        Publisher pub = publisherTo(sub, "true")) {
      pub.publish(quote("A", 1, 1));
      pub.publish(quote("A", 2, 1));
      Poll.until("both deliveries", TIMEOUT, () -> prices.size() == 2);
      assertThat(prices).containsExactly(1L, 2L);
    }
  }

  @Test
  void aFullQueueDropsAndCounts() throws Exception {
    try (Subscriber sub =
            Subscriber.builder(client).host(LOOPBACK).filter("true").queueCapacity(1).build();
        Publisher pub = publisherTo(sub, "true")) {
      for (int i = 0; i < 3; i++) {
        pub.publish(quote("A", i, 1));
      }
      // received is counted as a datagram comes in, overflowed once the full queue refused it
      SubscriberStats handled = new SubscriberStats(3, 1, 0, 0, 2);
      Poll.until("3 datagrams handled", TIMEOUT, () -> sub.stats().equals(handled));
      assertThat(sub.poll(TIMEOUT).event().intValue(1)).isZero();
    }
  }

  @Test
  void theDataInterfaceIsTheOneHoldingTheHostAddress() throws Exception {
    assertThat(HostAddresses.interfaceOf(LOOPBACK).isLoopback()).isTrue();
    assertThatThrownBy(() -> HostAddresses.interfaceOf(Ipv6Text.parse("2001:db8::77")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no interface of this host has the address 2001:db8::77");
  }

  @Test
  void hostileDatagramsNeverStopTheReceiver() throws Exception {
    java.util.Random random = new java.util.Random(7073);
    byte[] valid = new EventCodec(schema).encode(quote("ACME", 600, 5));
    try (Subscriber sub =
            Subscriber.builder(client)
                .host(LOOPBACK)
                .filter("price > 500")
                .onDelivery(d -> {})
                .build();
        DatagramSocket raw = new DatagramSocket()) {
      InetSocketAddress to = new InetSocketAddress(LOOPBACK, sub.port());
      int sent = 0;
      for (int batch = 0; batch < 10; batch++) {
        for (int i = 0; i < 30; i++) {
          byte[] d;
          if (random.nextBoolean()) {
            d = new byte[random.nextInt(80)];
            random.nextBytes(d);
          } else {
            d = java.util.Arrays.copyOf(valid, valid.length + random.nextInt(3) - 1);
            d[random.nextInt(d.length)] ^= (byte) (1 << random.nextInt(8));
          }
          raw.send(new DatagramPacket(d, d.length, to));
          sent++;
        }
        int expected = sent;
        // In batches, so that the kernel's socket buffer never overflows.
        Poll.until(expected + " datagrams", TIMEOUT, () -> sub.stats().received() == expected);
      }
      raw.send(new DatagramPacket(valid, valid.length, to));
      Poll.until("the last datagram", TIMEOUT, () -> sub.stats().received() == 301);
      // a datagram is counted received before it is classified: wait for the classification too
      Poll.until(
          "every datagram classified",
          TIMEOUT,
          () -> {
            SubscriberStats t = sub.stats();
            return t.malformed() + t.delivered() + t.falsePositives() == 301;
          });
      SubscriberStats s = sub.stats();
      assertThat(s.malformed()).isGreaterThan(200);
      assertThat(s.delivered()).isPositive();
    }
  }

  @Test
  void aPublisherThatPollsTheIndexFollowsALayoutSwitchAndKeepsDelivering() throws Exception {
    try (Subscriber sub = Subscriber.builder(client).host(LOOPBACK).filter("true").build();
        Publisher pub =
            Publisher.builder(client)
                .host(LOOPBACK)
                .destination(new InetSocketAddress(LOOPBACK, sub.port()))
                .indexRefresh(Duration.ofMillis(20))
                .build()) {
      assertThat(pub.config().eventPort()).isEqualTo(7073);
      stub.switchIndex(2); // the new index sends events to the alternate port
      Poll.until("the publisher's new index", TIMEOUT, () -> pub.config().eventPort() == 7074);
      Event sent = pub.publish(quote("ACME", 600, 7));
      assertThat(sub.poll(TIMEOUT).event()).isEqualTo(sent);
    }
  }
}
