package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.api.AuthenticatedApi.principal;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * Publishing enforced at the first switch (issue 27 part 2) on the simulated switch: with
 * principals, a host port injects no content address until its host advertised, then only inside
 * its advertisement cut to its region; a withdrawal closes it again; the drops are counted in
 * {@code GET /v1/ingress} and {@code nps_ingress_dropped_packets}. Without principals nothing is
 * enforced (PubSubApiTest). With Camus routing the same for query addresses. The same rules on OVS:
 * testbed/tests/test_ingress_ovs.py.
 */
class IngressEnforcementTest {
  private static final PubSubLimits LIMITS = PubSubLimits.DEFAULTS;
  static final String PUB = "fd6e:7073:1::2";
  static final String SUB = "fd6e:7073:1::3";
  @TempDir Path dir;
  AuthenticatedApi fixture;
  OneSwitchNetwork net;
  PubSubService service;

  /**
   * The controller with principals {@code pub} and {@code sub}, pub/sub as {@code attach} starts.
   */
  private void start(Function<NetworkController, PubSubService> attach) throws Exception {
    start(attach, "price < 1000", "true");
  }

  /** The same with {@code pub}'s advertise region and {@code sub}'s subscribe region. */
  private void start(
      Function<NetworkController, PubSubService> attach, String advertise, String subscribe)
      throws Exception {
    fixture =
        AuthenticatedApi.start(
            dir,
            attach,
            principal("pub", "hosts: ['" + PUB + "']\n    advertise: '" + advertise + "'"),
            principal("sub", "hosts: ['" + SUB + "']\n    subscribe: '" + subscribe + "'"));
    net = fixture.net;
    service = fixture.service;
  }

  private static Function<NetworkController, PubSubService> routing(String routing) {
    SpatialIndex index = new SpatialIndex(PubSubApiTest.QUOTES, 12);
    return c ->
        routing.equals("pleroma")
            ? PubSubService.attach(c, index, LIMITS)
            : PubSubService.attachCamus(c, index, LIMITS, RoutingPolicy.parse("mr"), 1);
  }

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private HttpResponse<String> send(String who, String method, String path, String body)
      throws Exception {
    return fixture.send(who, method, path, body);
  }

  /** The switch's verdict on an event of this price sent by the publisher (port 2). */
  private List<Long> published(long price) {
    Event e =
        Event.builder(service.index().schema()).set("symbol", "X").set("price", price).build();
    Ipv6Address to =
        service.routing().equals("pleroma")
            ? ContentFlows.address(service.index().dz(e))
            : QueryAddressLayout.of(MessageSpec.fromSchema(service.index().schema())).address(e);
    return net.sw()
        .process(2, PacketHeaders.udp6(Ipv6Address.parse(PUB), to, 40_000, ContentFlows.EVENT_PORT))
        .ports();
  }

  private List<FlowEntry> drops(long port) {
    return net.sw().flows().stream()
        .filter(f -> f.cookie() == SwitchLayout.INGRESS_COOKIE)
        .filter(f -> f.match().inPort() == port)
        .toList();
  }

  /** PLEROMA's drops of content addresses; Camus's allowed query-address boxes above a drop. */
  @ParameterizedTest
  @ValueSource(strings = {"pleroma", "camus-mr"})
  void aPortInjectsOnlyWhatItsHostAdvertisedWithinItsRegion(String routing) throws Exception {
    start(routing(routing));
    HttpResponse<String> s =
        send("sub", "POST", "/v1/subscriptions", "{\"host\":\"" + SUB + "\",\"filter\":\"true\"}");
    assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
    Wait.until(
        "a drop-all on every host port",
        Duration.ofSeconds(10),
        () -> List.of(1L, 2L, 3L, 4L).stream().allMatch(p -> drops(p).size() == 1));
    assertThat(published(10)).isEmpty(); // nothing advertised: nothing injected

    HttpResponse<String> a =
        send(
            "pub",
            "POST",
            "/v1/advertisements",
            "{\"host\":\"" + PUB + "\",\"filter\":\"price < 50000\"}");
    assertThat(a.statusCode()).as(a.body()).isEqualTo(201);
    // answered once the drops follow it: cut to the region price < 1000, not the filter
    assertThat(published(10)).containsExactly(3L);
    if (!routing.equals("pleroma")) { // Camus matches the price field exactly, not by cells
      assertThat(published(999)).containsExactly(3L);
      assertThat(published(1000)).isEmpty();
    }
    assertThat(published(40_000)).isEmpty();
    assertThat(published(90_000)).isEmpty();
    assertThat(drops(2)).hasSizeGreaterThan(1);
    assertThat(drops(1)).hasSize(1); // other ports untouched

    String id = Rest.json(a).get("id").asText();
    assertThat(send("pub", "DELETE", "/v1/advertisements/" + id, "").statusCode()).isEqualTo(200);
    assertThat(published(10)).isEmpty();
    assertThat(drops(2)).hasSize(1);

    HttpResponse<String> counted = send("sub", "GET", "/v1/ingress", "");
    assertThat(counted.statusCode()).isEqualTo(200);
    assertThat(Rest.json(counted).get("enforced").asBoolean()).isTrue();
    // the last price 10 hit port 2's new drop-all (replaced rules count afresh)
    assertThat(Rest.json(counted).get("ports").toString()).contains("\"port\":2");
    assertThat(Rest.json(counted).get("dropped_packets").asLong()).isGreaterThanOrEqualTo(1);
    String metrics = send("sub", "GET", "/metrics", "").body();
    assertThat(metrics).containsPattern("(?m)^nps_ingress_dropped_packets [1-9]");
  }

  /**
   * Subscribing enforced by the network: a subscriber whose filter reaches beyond its region gets
   * only the region from the switch, with PLEROMA's covers and with Camus's pipeline rules (these
   * were compiled from the filter as written, and delivered 40 000 below).
   */
  @ParameterizedTest
  @ValueSource(strings = {"pleroma", "camus-mr"})
  void aSubscriberReceivesOnlyItsRegionWhateverItsFilter(String routing) throws Exception {
    start(routing(routing), "true", "price < 1000");
    HttpResponse<String> a =
        send("pub", "POST", "/v1/advertisements", "{\"host\":\"" + PUB + "\",\"filter\":\"true\"}");
    assertThat(a.statusCode()).as(a.body()).isEqualTo(201);
    assertThat(published(40_000)).isEmpty(); // nobody subscribed yet

    HttpResponse<String> s =
        send(
            "sub",
            "POST",
            "/v1/subscriptions",
            "{\"host\":\"" + SUB + "\",\"filter\":\"price < 50000\"}");
    assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
    assertThat(published(10)).containsExactly(3L);
    if (!routing.equals("pleroma")) { // Camus matches the price field exactly, not by cells
      assertThat(published(999)).containsExactly(3L);
      assertThat(published(1000)).isEmpty();
    }
    assertThat(published(40_000)).isEmpty(); // inside the filter, outside the region
    assertThat(published(90_000)).isEmpty();
    // the request keeps its filter as written; only its flows are cut
    assertThat(send("sub", "GET", "/v1/subscriptions", "").body()).contains("price < 50000");
  }
}
