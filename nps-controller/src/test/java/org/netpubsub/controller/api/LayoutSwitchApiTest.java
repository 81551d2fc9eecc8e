package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * The index version and the online layout switch over real HTTP, one simulated switch: requests
 * with a stale version are refused 409 with the current one; a switch installs the new layout's
 * flows beside the old ones (on the other event port), announces the new version, then removes the
 * old flows, and requests made during it are refused 503 with Retry-After.
 */
class LayoutSwitchApiTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Schema QUOTES =
      Schema.builder("quotes")
          .stringAttribute("symbol", 8)
          .intAttribute("price", 0, 100_000)
          .index(List.of("price"))
          .build();
  static final String SUB =
      "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"price > 50000\",\"port\":40001}";
  static final String AD = "{\"host\":\"fd6e:7073:1::1\",\"filter\":\"true\"}";

  OneSwitchNetwork net;
  NetworkController controller;
  PubSubService service;
  ControllerApi api;
  Rest rest;
  SimulatedOpenFlowSwitch sw;

  @BeforeEach
  void start() throws Exception {
    net = OneSwitchNetwork.startController();
    controller = net.controller();
    service = PubSubService.attach(controller, new SpatialIndex(QUOTES, 12), PubSubLimits.DEFAULTS);
    api = ControllerApi.start(controller, Optional.of(service), new InetSocketAddress("::1", 0));
    sw = net.connectSwitch(3).sw();
    rest = new Rest(api.address().getPort());
  }

  @AfterEach
  void stop() {
    api.close();
    net.close();
  }

  @Test
  void aRequestWithAStaleIndexVersionIsRefused409WithTheCurrentOne() throws Exception {
    JsonNode index = Rest.json(rest.send("GET", "/v1/pubsub", null)).get("index");
    assertThat(index.get("version").asLong()).isEqualTo(1);

    HttpResponse<String> current =
        rest.send("POST", "/v1/subscriptions", SUB, Map.of("Nps-Index-Version", "1"));
    assertThat(current.statusCode()).as(current.body()).isEqualTo(201);

    HttpResponse<String> stale =
        rest.send("POST", "/v1/advertisements", AD, Map.of("Nps-Index-Version", "7"));
    assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
    assertThat(stale.headers().firstValue("Nps-Index-Version")).hasValue("1");
    assertThat(Rest.json(stale).get("error").get("field").asText()).isEqualTo("Nps-Index-Version");
    assertThat(service.requests(org.netpubsub.controller.pubsub.PubSubRequest.Kind.ADVERTISEMENT))
        .as("a refused request does not stand")
        .isEmpty();

    String id = Rest.json(current).get("id").asText();
    HttpResponse<String> staleDelete =
        rest.send("DELETE", "/v1/subscriptions/" + id, null, Map.of("Nps-Index-Version", "2"));
    assertThat(staleDelete.statusCode()).isEqualTo(409);
    HttpResponse<String> malformed =
        rest.send("DELETE", "/v1/subscriptions/" + id, null, Map.of("Nps-Index-Version", "x"));
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(rest.send("DELETE", "/v1/subscriptions/" + id, null).statusCode())
        .as("without the header: accepted")
        .isEqualTo(200);
  }

  @Test
  void aLayoutSwitchInstallsTheNewFlowsBesideTheOldThenRemovesTheOld() throws Exception {
    assertThat(rest.send("POST", "/v1/subscriptions", SUB).statusCode()).isEqualTo(201);
    assertThat(rest.send("POST", "/v1/advertisements", AD).statusCode()).isEqualTo(201);
    assertThat(contentPorts()).containsExactly(ContentFlows.EVENT_PORT);
    List<FlowEntry> before = service.contentFlows(OneSwitchNetwork.DPID).get();

    String body = switchTo10Bits(60_000);
    Rest admin = new Rest(api.address().getPort()); // the PUT answers after the grace
    CompletableFuture<HttpResponse<String>> put =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return admin.send("PUT", "/v1/pubsub/layout", body);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Wait.until(
        "the new index version",
        Duration.ofSeconds(10),
        () -> service.indexVersion().version() == 2);
    // make-before-break: announced only once the new flows stand, the old ones still there
    assertThat(contentPorts())
        .containsExactlyInAnyOrder(ContentFlows.EVENT_PORT, ContentFlows.EVENT_PORT + 1);
    assertThat(new HashSet<>(sw.flows())).containsAll(before);
    JsonNode settings = Rest.json(rest.send("GET", "/v1/pubsub", null));
    assertThat(settings.get("index").get("version").asLong()).isEqualTo(2);
    assertThat(settings.get("index").get("length").asInt()).isEqualTo(10);
    assertThat(settings.get("event_port").asInt()).isEqualTo(ContentFlows.EVENT_PORT + 1);
    HttpResponse<String> during = rest.send("POST", "/v1/subscriptions", SUB);
    assertThat(during.statusCode()).as(during.body()).isEqualTo(503);
    assertThat(during.headers().firstValue("Retry-After")).isPresent();
    assertThat(put).isNotDone();
  }

  @Test
  void aLayoutSwitchCompletesWithOnlyTheNewFlowsAndNewRequestsUseTheNewLayout() throws Exception {
    HttpResponse<String> put = subscribeAdvertiseAndSwitch(() -> {});
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    JsonNode o = Rest.json(put);
    assertThat(o.get("version").asLong()).isEqualTo(2);
    assertThat(o.get("requests").asInt()).isEqualTo(2);
    assertThat(o.get("flows_installed").asInt()).isPositive();
    assertThat(o.get("flows_removed").asInt()).isPositive();

    assertThat(contentPorts()).containsExactly(ContentFlows.EVENT_PORT + 1);
    assertThat(new HashSet<>(sw.flows()))
        .isEqualTo(new HashSet<>(controller.desiredFlows(OneSwitchNetwork.DPID)));
    assertThat(service.contentFlows(OneSwitchNetwork.DPID).get())
        .allMatch(f -> f.match().ipv6Dst().mask().prefixLength() <= 16 + 10);

    HttpResponse<String> stale =
        rest.send("POST", "/v1/subscriptions", SUB, Map.of("Nps-Index-Version", "1"));
    assertThat(stale.statusCode()).isEqualTo(409);
    assertThat(stale.headers().firstValue("Nps-Index-Version")).hasValue("2");
    String id =
        service
            .requests(org.netpubsub.controller.pubsub.PubSubRequest.Kind.SUBSCRIPTION)
            .get(0)
            .id();
    assertThat(rest.send("DELETE", "/v1/subscriptions/" + id, null).statusCode()).isEqualTo(200);
    assertThat(service.contentFlows(OneSwitchNetwork.DPID).get()).isEmpty();
    assertThat(contentPorts()).isEmpty();

    Schema other =
        Schema.builder("quotes").intAttribute("price", 0, 100_000).index(List.of("price")).build();
    HttpResponse<String> refused =
        rest.send(
            "PUT",
            "/v1/pubsub/layout",
            JSON.createObjectNode().put("schema", SchemaWriter.toYaml(other)).toString());
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).contains("attributes");
  }

  @Test
  void theOldPortIsGuardedBeforeAnyNewFlowAndTheOldLayoutGoesInOneDeletePerSwitch()
      throws Exception {
    HttpResponse<String> put = subscribeAdvertiseAndSwitch(sw::clearReceived);
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

    List<FlowMod> mods =
        sw.receivedMods().stream()
            .filter(m -> m instanceof SwitchMod.Flow)
            .map(m -> ((SwitchMod.Flow) m).mod())
            .toList();
    FlowEntry guard = ContentFlows.guard(ContentFlows.EVENT_PORT);
    int guarded = -1;
    int firstNew = -1;
    for (int i = 0; i < mods.size(); i++) {
      FlowMod m = mods.get(i);
      Integer port = m.match().udpDst();
      if (m.command() == FlowModCommand.ADD && guarded < 0 && m.toEntry().equals(guard)) {
        guarded = i;
      }
      if (m.command() == FlowModCommand.ADD
          && firstNew < 0
          && port != null
          && port == ContentFlows.EVENT_PORT + 1) {
        firstNew = i;
      }
    }
    assertThat(guarded).as("the old port's guard was sent").isNotNegative();
    assertThat(firstNew).as("new flows were sent").isPositive();
    assertThat(guarded).as("the guard goes in before any new flow").isLessThan(firstNew);
    List<FlowMod> deletes = mods.stream().filter(m -> m.command().isDelete()).toList();
    assertThat(deletes).as("one non-strict delete retires the old layout").hasSize(1);
    assertThat(deletes.get(0).command()).isEqualTo(FlowModCommand.DELETE);
    assertThat(deletes.get(0).match().udpDst()).isEqualTo(ContentFlows.EVENT_PORT);
    assertThat(sw.flows()).doesNotContain(guard);
    assertThat(contentPorts()).containsExactly(ContentFlows.EVENT_PORT + 1);
    assertThat(new HashSet<>(sw.flows()))
        .isEqualTo(new HashSet<>(controller.desiredFlows(OneSwitchNetwork.DPID)));
  }

  /**
   * A subscription and an advertisement, then {@code beforeSwitch}, then a switch to a 10-bit index
   * with no grace; the PUT's answer.
   */
  private HttpResponse<String> subscribeAdvertiseAndSwitch(Runnable beforeSwitch) throws Exception {
    assertThat(rest.send("POST", "/v1/subscriptions", SUB).statusCode()).isEqualTo(201);
    assertThat(rest.send("POST", "/v1/advertisements", AD).statusCode()).isEqualTo(201);
    beforeSwitch.run();
    return rest.send("PUT", "/v1/pubsub/layout", switchTo10Bits(0));
  }

  /** The body of a switch to a 10-bit index of the same schema. */
  private static String switchTo10Bits(int graceMs) {
    return JSON.createObjectNode()
        .put("schema", SchemaWriter.toYaml(QUOTES))
        .put("length", 10)
        .put("grace_ms", graceMs)
        .toString();
  }

  /** The UDP ports the switch's content flows match. */
  private Set<Integer> contentPorts() {
    return sw.flows().stream()
        .filter(f -> f.cookie() == ContentFlows.COOKIE)
        .map(f -> f.match().udpDst())
        .collect(Collectors.toSet());
  }
}
