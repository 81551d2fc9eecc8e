package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.api.AuthenticatedApi.principal;

import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.pubsub.Access;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.StandingStore;
import org.netpubsub.controller.pubsub.StoredRouting;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.StoredLife;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.http.Authenticator;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * A principals reload re-cuts the standing requests (issue 27, "Identity"), on the simulated
 * switch's packet walk: a subscription made under the region A ∨ B delivers only A once the
 * subscriber's region is narrowed to A (and B again once widened back), an advertisement's ingress
 * drops follow its publisher's new region, a reload that changes no region sends no flow-mod, and a
 * principal removed loses its requests. PLEROMA's cells and Camus's rules alike. On OVS:
 * testbed/tests/test_ingress_ovs.py.
 */
class PrincipalsReloadTest {
  private static final String PUB = IngressEnforcementTest.PUB; // port 2
  private static final String SUB = IngressEnforcementTest.SUB; // port 3
  private static final String A = "price < 1000";
  private static final String A_OR_B = "price < 1000 || price >= 50000";
  private static final long IN_A = 10;
  private static final long IN_B = 90_000;

  @TempDir Path dir;
  AuthenticatedApi fixture;
  PubSubService service;

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static Function<NetworkController, PubSubService> routing(String routing) {
    SpatialIndex index = new SpatialIndex(PubSubApiTest.QUOTES, 12);
    PubSubLimits limits = PubSubLimits.DEFAULTS;
    return c ->
        switch (routing) {
          case "pleroma" -> PubSubService.attach(c, index, limits);
          // off the loop: the engine's replace is a withdrawal, then an addition
          case "partitioned" ->
              PubSubService.attachPartitioned(
                  c, index, limits, ControlPlaneSettings.of(2, Partitions.uniform(4)));
          default -> PubSubService.attachCamus(c, index, limits, RoutingPolicy.parse("mr"), 1);
        };
  }

  private static String[] principals(String advertise, String subscribe, String... others) {
    List<String> all = new java.util.ArrayList<>();
    all.add(principal("operator", "admin: [hosts]"));
    all.add(principal("pub", "hosts: ['" + PUB + "']\n    advertise: '" + advertise + "'"));
    if (subscribe != null) {
      all.add(principal("sub", "hosts: ['" + SUB + "']\n    subscribe: '" + subscribe + "'"));
    }
    all.addAll(List.of(others));
    return all.toArray(String[]::new);
  }

  /** Rewrites the principals file and reloads it (the re-cut is done when it returns). */
  private void reload(String... principals) throws Exception {
    Path f = dir.resolve("principals.yaml");
    Path tmp = dir.resolve("principals.yaml.tmp");
    Files.writeString(tmp, "principals:\n" + String.join("", principals));
    Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(fixture.auth.reload()).isTrue();
  }

  /** The ports the switch sends an event of this price to, published by PUB (port 2). */
  private List<Long> published(long price) {
    Event e =
        Event.builder(service.index().schema()).set("symbol", "X").set("price", price).build();
    Ipv6Address to =
        service.routing().equals("pleroma")
            ? ContentFlows.address(service.index().dz(e))
            : QueryAddressLayout.of(MessageSpec.fromSchema(service.index().schema())).address(e);
    return fixture
        .net
        .sw()
        .process(2, PacketHeaders.udp6(Ipv6Address.parse(PUB), to, 40_000, ContentFlows.EVENT_PORT))
        .ports();
  }

  private double recut(String outcome) throws Exception {
    String m = fixture.send("operator", "GET", "/metrics", "").body();
    return m.lines()
        .filter(l -> l.startsWith("nps_auth_recut_total{outcome=\"" + outcome + "\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  @ParameterizedTest
  @ValueSource(strings = {"pleroma", "camus-mr", "partitioned"})
  void aReloadReCutsStandingRequestsToTheNewRegions(String routing) throws Exception {
    fixture = AuthenticatedApi.start(dir, routing(routing), principals(A_OR_B, A_OR_B));
    service = fixture.service;
    HttpResponse<String> a =
        fixture.send(
            "pub", "POST", "/v1/advertisements", "{\"host\":\"" + PUB + "\",\"filter\":\"true\"}");
    assertThat(a.statusCode()).as(a.body()).isEqualTo(201);
    HttpResponse<String> s = fixture.subscribe("sub", SUB, "true");
    assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
    String id = Rest.json(s).get("id").asText();
    assertThat(published(IN_A)).containsExactly(3L);
    assertThat(published(IN_B)).containsExactly(3L);

    // narrowed to A: the switch no longer delivers B, still A; the same request stands
    reload(principals(A_OR_B, A));
    assertThat(published(IN_A)).containsExactly(3L);
    assertThat(published(IN_B)).isEmpty();
    assertThat(service.request(id)).get().extracting(PubSubRequest::filter).isEqualTo("true");
    assertThat(service.request(id).orElseThrow().region()).hasValue(A);
    assertThat(recut("recut")).isEqualTo(1);

    // widened back: B again (the request kept its filter)
    reload(principals(A_OR_B, A_OR_B));
    assertThat(published(IN_B)).containsExactly(3L);
    assertThat(recut("recut")).isEqualTo(2);

    // the publisher narrowed to A: its port's ingress drops B now, A still passes
    reload(principals(A, A_OR_B));
    assertThat(published(IN_B)).isEmpty();
    assertThat(published(IN_A)).containsExactly(3L);
    assertThat(recut("recut")).isEqualTo(3);

    // no region changed (another principal added): no flow-mod at all
    fixture.net.sw().clearReceived();
    reload(principals(A, A_OR_B, principal("other", "subscribe: 'true'")));
    assertThat(fixture.net.sw().receivedMods()).isEmpty();
    assertThat(recut("recut")).isEqualTo(3);
    assertThat(published(IN_A)).containsExactly(3L);

    // the subscriber removed: its subscription is withdrawn, nothing is delivered
    reload(principals(A, null));
    assertThat(service.request(id)).isEmpty();
    assertThat(service.requests(PubSubRequest.Kind.SUBSCRIPTION)).isEmpty();
    assertThat(published(IN_A)).isEmpty();
    assertThat(recut("withdrawn")).isEqualTo(1);
  }

  /** A region whose text changed but whose cover did not: no flow-mod, the new region recorded. */
  @ParameterizedTest
  @ValueSource(strings = {"pleroma"})
  void aRegionWithTheSameCoverSendsNoFlowMod(String routing) throws Exception {
    fixture = AuthenticatedApi.start(dir, routing(routing), principals("true", A));
    service = fixture.service;
    HttpResponse<String> s = fixture.subscribe("sub", SUB, "true");
    assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
    String id = Rest.json(s).get("id").asText();
    fixture.net.sw().clearReceived();
    reload(principals("true", "price < 1000 && true"));
    assertThat(fixture.net.sw().receivedMods()).isEmpty();
    assertThat(service.request(id).orElseThrow().region()).hasValue("price < 1000 && true");
    assertThat(recut("relabelled")).isEqualTo(1);
    assertThat(recut("recut")).isEqualTo(0);
  }

  /**
   * A controller restarted on its store re-cuts the restored requests to the principals file in
   * force, which changed while it was down (once its restart's hold lets requests be configured).
   */
  @org.junit.jupiter.api.Test
  void aRestartOnAStoreReCutsToTheFileChangedMeanwhile() throws Exception {
    SpatialIndex index = new SpatialIndex(PubSubApiTest.QUOTES, 12);
    String url = "sqlite:" + dir.resolve("store.db");
    SimulatedOpenFlowSwitch sw = StoredLife.recordingSwitch();
    String id;
    try (StoredLife first = stored(url, index)) {
      first.connect(sw);
      for (int i = 1; i <= 4; i++) {
        first.c().registerHost(OneSwitchNetwork.host(i)).get();
      }
      Access pub = new Access("pub", false, Optional.of(A_OR_B), "pub");
      first.s().advertise(PUB, "true", Optional.empty(), pub).get();
      Access sub = new Access("sub", false, Optional.of(A_OR_B), "sub");
      id = first.s().subscribe(SUB, "true", 40000, Optional.empty(), sub).get().request().id();
    }
    StoredLife.gone(sw);
    Path f = dir.resolve("principals.yaml");
    Files.writeString(f, "principals:\n" + String.join("", principals(A_OR_B, A)));
    try (StoredLife again = stored(url, index);
        Authenticator auth = Authenticator.load(f, again.s()::checkRegion, Duration.ZERO);
        ControllerApi api =
            ControllerApi.start(
                again.c(),
                Optional.of(again.s()),
                Optional.empty(),
                Optional.empty(),
                new InetSocketAddress("::1", 0),
                Optional.of(auth))) {
      service = again.s();
      again.connect(sw);
      Wait.until(
          "the restored subscription re-cut to " + A,
          Duration.ofSeconds(30),
          () -> service.request(id).orElseThrow().region().equals(Optional.of(A)));
      Wait.until(
          "the switch delivering A and not B",
          Duration.ofSeconds(10),
          () -> walk(sw, IN_A).equals(List.of(3L)) && walk(sw, IN_B).isEmpty());
      // counted once the re-cut completed, its row written (the journal writes before that)
      Wait.until(
          "the re-cut counted",
          Duration.ofSeconds(10),
          () -> api.metrics().get("nps.auth.recut").tag("outcome", "recut").counter().count() >= 1);
      assertThat(again.store().load().requests())
          .filteredOn(r -> r.id().equals(id))
          .singleElement()
          .satisfies(r -> assertThat(r.region()).hasValue(A));
    } finally {
      sw.close();
    }
  }

  private static StoredLife stored(String url, SpatialIndex index) throws java.io.IOException {
    StandingStore store =
        StandingStore.open(url, StoredRouting.pleromaFields(index, PubSubLimits.DEFAULTS));
    return StoredLife.start(
        store,
        (c, st, rows, hold) ->
            StoredRouting.attachPleroma(c, index, PubSubLimits.DEFAULTS, st, rows, hold));
  }

  private List<Long> walk(SimulatedOpenFlowSwitch sw, long price) {
    Event e =
        Event.builder(service.index().schema()).set("symbol", "X").set("price", price).build();
    Ipv6Address to = ContentFlows.address(service.index().dz(e));
    return sw.process(
            2, PacketHeaders.udp6(Ipv6Address.parse(PUB), to, 40_000, ContentFlows.EVENT_PORT))
        .ports();
  }

  /** A region that leaves a subscription no cover withdraws it (a 403 for a new one). */
  @ParameterizedTest
  @ValueSource(strings = {"pleroma", "camus-mr"})
  void aRegionThatLeavesNoCoverWithdraws(String routing) throws Exception {
    fixture = AuthenticatedApi.start(dir, routing(routing), principals("true", A_OR_B));
    service = fixture.service;
    HttpResponse<String> a =
        fixture.send(
            "pub", "POST", "/v1/advertisements", "{\"host\":\"" + PUB + "\",\"filter\":\"true\"}");
    assertThat(a.statusCode()).as(a.body()).isEqualTo(201);
    HttpResponse<String> s = fixture.subscribe("sub", SUB, "price > 60000");
    assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
    assertThat(published(IN_B)).containsExactly(3L);
    reload(principals("true", A));
    assertThat(service.requests(PubSubRequest.Kind.SUBSCRIPTION)).isEmpty();
    assertThat(published(IN_B)).isEmpty();
    assertThat(recut("withdrawn")).isEqualTo(1);
    assertThat(fixture.subscribe("sub", SUB, "price > 60000").statusCode()).isEqualTo(403);
  }
}
