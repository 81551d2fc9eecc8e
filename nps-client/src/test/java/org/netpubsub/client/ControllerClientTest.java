package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;

class ControllerClientTest {
  private static final Inet6Address HOST = Ipv6Text.parse("fd6e:7073:1::3");
  private final Schema schema = TestSchemas.quotes();
  private final List<Inet6Address> announced = new ArrayList<>();
  private StubController stub;
  private ControllerClient client;

  @BeforeEach
  void start() throws Exception {
    stub = StubController.start(schema, TestSchemas.INDEX_LENGTH);
    client =
        ControllerClient.builder(stub.url())
            .announcer(
                h -> {
                  synchronized (announced) {
                    announced.add(h);
                  }
                  stub.markKnown(Ipv6Address.format(h));
                })
            .build();
  }

  @AfterEach
  void stop() {
    client.close();
    stub.close();
  }

  @Test
  void configBuildsTheIndexExactlyAsTheController() {
    PubSubConfig c = client.pubsubConfig();
    SpatialIndex expected = new SpatialIndex(schema, TestSchemas.INDEX_LENGTH);
    assertThat(c.schema().attributes()).isEqualTo(schema.attributes());
    assertThat(c.schema().id()).isEqualTo(schema.id());
    assertThat(c.index().length()).isEqualTo(TestSchemas.INDEX_LENGTH);
    assertThat(c.index().bitOrder()).isEqualTo(expected.bitOrder());
    assertThat(c.eventPort()).isEqualTo(7073);
  }

  @Test
  void configWithAnotherDimensionOrderIndexesInThatOrder() {
    PubSubConfig c =
        PubSubConfig.of(
            org.netpubsub.content.schema.SchemaWriter.toYaml(schema),
            schema.id(),
            6,
            List.of("volume", "price"),
            7073);
    assertThat(c.index().bitOrder())
        .containsExactly("volume", "price", "volume", "price", "volume", "price");
  }

  @Test
  void aSchemaIdThatDoesNotMatchIsRefused() {
    assertThatThrownBy(
            () ->
                PubSubConfig.of(
                    org.netpubsub.content.schema.SchemaWriter.toYaml(schema),
                    schema.id() + 1,
                    8,
                    List.of("price"),
                    7073))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schema_id");
  }

  @Test
  void advertiseSubscribeAndRemoveReturnTypedResults() {
    Registration a = client.advertise(HOST, "price < 100");
    assertThat(a.id()).isEqualTo("a-1");
    assertThat(a.port()).isEqualTo(-1);
    assertThat(a.cells()).isEqualTo(3);
    assertThat(a.flowChanges()).isEqualTo(5);
    assertThat(a.responseMs()).isEqualTo(1.5);
    assertThat(stub.advertisements().get("a-1").get("host").asText()).isEqualTo("fd6e:7073:1::3");
    Registration s = client.subscribe(HOST, "price > 5", 40001);
    assertThat(s.id()).isEqualTo("s-2");
    assertThat(s.port()).isEqualTo(40001);
    assertThat(stub.subscriptions().get("s-2").get("port").asInt()).isEqualTo(40001);
    Removal r = client.unsubscribe("s-2");
    assertThat(r.id()).isEqualTo("s-2");
    assertThat(r.flowChanges()).isEqualTo(4);
    assertThat(r.responseMs()).isEqualTo(0.5);
    assertThat(client.unadvertise("a-1").switches()).isEqualTo(2);
    assertThat(stub.subscriptions()).isEmpty();
    assertThat(stub.advertisements()).isEmpty();
  }

  @Test
  void errorsCarryStatusAndTheControllersReason() {
    stub.failNext(503, "the controller has no spanning tree yet (no switch connected)");
    assertThatThrownBy(() -> client.subscribe(HOST, "true", 7073))
        .isInstanceOfSatisfying(
            ControllerException.class,
            e -> {
              assertThat(e.status()).isEqualTo(503);
              assertThat(e.reason())
                  .isEqualTo("the controller has no spanning tree yet (no switch connected)");
              assertThat(e.getMessage()).contains("POST /v1/subscriptions").contains("503");
              assertThat(e.isClientError()).isFalse();
            });
    assertThatThrownBy(() -> client.unsubscribe("s-99"))
        .isInstanceOfSatisfying(
            ControllerException.class,
            e -> {
              assertThat(e.status()).isEqualTo(404);
              assertThat(e.reason()).contains("s-99");
              assertThat(e.isClientError()).isTrue();
            });
    // A filter the controller refuses: its rendered message (with the caret) comes through.
    assertThatThrownBy(() -> client.subscribe(HOST, "price >", 7073))
        .isInstanceOfSatisfying(
            ControllerException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.reason()).contains("^");
            });
  }

  @Test
  void anUnreachableControllerIsStatusZero() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (ControllerClient c = ControllerClient.of("http://127.0.0.1:" + port)) {
      assertThatThrownBy(c::pubsubConfig)
          .isInstanceOfSatisfying(
              ControllerException.class,
              e -> assertThat(e.status()).isEqualTo(ControllerException.UNREACHABLE));
    }
  }

  @Test
  void anUnknownHostIsAnnouncedAndTheRequestRetried() {
    stub.requireKnownHosts();
    Registration s = client.subscribe(HOST, "price > 5", 40001);
    assertThat(s.id()).startsWith("s-");
    assertThat(announced).containsExactly(HOST);
    assertThat(stub.requests()).containsExactly("POST /v1/subscriptions", "POST /v1/subscriptions");
  }

  @Test
  void aHostThatStaysUnknownFailsWith409AfterTheWindow() {
    stub.requireKnownHosts();
    try (ControllerClient c =
        ControllerClient.builder(stub.url())
            .announcer(h -> announced.add(h))
            .hostUnknownWindow(Duration.ofMillis(300))
            .build()) {
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> c.advertise(HOST, "true"))
          .isInstanceOfSatisfying(
              ControllerException.class,
              e -> {
                assertThat(e.status()).isEqualTo(409);
                assertThat(e.reason()).contains("is not known");
              });
      assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
      assertThat(announced.size()).isGreaterThan(1);
    }
  }

  @Test
  void rateLimitedRequestsAreRetriedAfterRetryAfter() {
    stub.rateLimitNext(2, "0.05");
    long t0 = System.nanoTime();
    Registration a = client.advertise(HOST, "true");
    assertThat(a.id()).startsWith("a-");
    assertThat(stub.requests()).hasSize(3);
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
  }

  @Test
  void rateLimitRetriesAreBounded() {
    stub.rateLimitNext(5, "0");
    try (ControllerClient c =
        ControllerClient.builder(stub.url()).rateLimitRetries(2, Duration.ofMillis(10)).build()) {
      assertThatThrownBy(() -> c.advertise(HOST, "true"))
          .isInstanceOfSatisfying(
              ControllerException.class, e -> assertThat(e.status()).isEqualTo(429));
    }
    assertThat(stub.requests()).hasSize(3);
  }

  @Test
  void badUrlsAreRefused() {
    for (String bad : List.of("ftp://x:1", "localhost:8080", "http://h:1/v1/pubsub", "http://")) {
      assertThatThrownBy(() -> ControllerClient.of(bad), bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("http://HOST:PORT");
    }
    assertThat(ControllerClient.of("http://[fd6e:7073:ffff::c0]:8080/").base().toString())
        .isEqualTo("http://[fd6e:7073:ffff::c0]:8080");
  }

  @Test
  void aStaleIndexIsRefetchedAndTheRequestRetriedOnce() {
    assertThat(client.indexVersion()).isZero();
    client.subscribe(HOST, "price > 1", 40000); // no index fetched yet: no version sent
    client.pubsubConfig();
    assertThat(client.indexVersion()).isEqualTo(1);
    List<PubSubConfig> changes = new ArrayList<>();
    client.onIndexChange(changes::add);
    stub.switchIndex(2); // the controller switched its layout

    Registration s = client.subscribe(HOST, "price > 5", 40001);

    assertThat(stub.subscriptions()).containsKey(s.id());
    assertThat(stub.requests())
        .containsExactly(
            "POST /v1/subscriptions",
            "GET /v1/pubsub",
            "POST /v1/subscriptions",
            "GET /v1/pubsub",
            "POST /v1/subscriptions");
    assertThat(stub.versionsSent()).containsExactly("", "", "1", "1", "2");
    assertThat(client.indexVersion()).isEqualTo(2);
    assertThat(changes).singleElement().extracting(PubSubConfig::eventPort).isEqualTo(7074);
  }
}
