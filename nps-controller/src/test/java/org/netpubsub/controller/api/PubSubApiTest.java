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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.sim.FaultMode;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Host;

/**
 * Pub/sub requests over real HTTP against a controller with one simulated switch: a request answers
 * after the switch acknowledged its flows, the switch then holds exactly the controller's flows,
 * withdrawing removes them, and every refusal has its status and reason.
 */
class PubSubApiTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Schema QUOTES =
      Schema.builder("quotes")
          .stringAttribute("symbol", 8)
          .intAttribute("price", 0, 100_000)
          .index(List.of("price"))
          .build();
  static final long DPID = OneSwitchNetwork.DPID;

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
    service =
        attach(
            controller,
            new SpatialIndex(QUOTES, 12),
            PubSubLimits.DEFAULTS.withRate(1, 30)); // the flood is refused however slow the machine
    api = ControllerApi.start(controller, Optional.of(service), new InetSocketAddress("::1", 0));
    // as in GroupApiTest: the hosts' routes may still be pending when connectSwitch returns
    sw = net.connectSwitch(3).awaitDesiredState().sw();
  }

  @AfterEach
  void stop() {
    api.close();
    net.close();
  }

  @Test
  void withoutPrincipalsPublishingIsNotEnforcedByTheSwitches() throws Exception {
    Rest r = new Rest(api.address().getPort());
    assertThat(Rest.json(r.send("GET", "/v1/ingress", "")).get("enforced").asBoolean()).isFalse();
    assertThat(sw.flows())
        .noneMatch(f -> f.cookie() == org.netpubsub.network.layout.SwitchLayout.INGRESS_COOKIE);
  }

  /** The pub/sub app under test: PLEROMA with one configurator on the controller loop. */
  PubSubService attach(NetworkController c, SpatialIndex index, PubSubLimits limits) {
    return PubSubService.attach(c, index, limits);
  }

  /** Publisher–subscriber paths one overlapping pair reports. */
  int pathsPerPair() {
    return 1;
  }

  static Host host(int i) {
    return OneSwitchNetwork.host(i);
  }

  @Test
  void aSubscriptionAnswersOnceTheSwitchHoldsItsFlowsAndWithdrawingRemovesThem() throws Exception {
    JsonNode settings = json(send("GET", "/v1/pubsub", null));
    assertThat(settings.get("index").get("length").asInt()).isEqualTo(12);
    assertThat(settings.get("index").get("dimensions").get(0).asText()).isEqualTo("price");
    assertThat(settings.get("event_port").asInt()).isEqualTo(ContentFlows.EVENT_PORT);
    assertThat(settings.get("schema").asText()).contains("name: quotes");

    HttpResponse<String> sub =
        send(
            "POST",
            "/v1/subscriptions",
            "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"price > 50000\",\"port\":40001}");
    assertThat(sub.statusCode()).as(sub.body()).isEqualTo(201);
    assertThat(json(sub).get("id").asText()).startsWith("s-");
    assertThat(json(sub).get("flow_changes").asInt()).as("no publisher yet").isZero();

    HttpResponse<String> ad =
        send("POST", "/v1/advertisements", "{\"host\":\"fd6e:7073:1::1\",\"filter\":\"true\"}");
    assertThat(ad.statusCode()).as(ad.body()).isEqualTo(201);
    JsonNode a = json(ad);
    assertThat(a.get("flow_changes").asInt()).isPositive();
    assertThat(a.get("switches").asInt()).isEqualTo(1);
    assertThat(a.get("paths").asInt()).isEqualTo(pathsPerPair());
    assertThat(a.get("response_ms").asDouble()).isPositive();
    // answered after the barrier: the switch already holds exactly the desired flows
    List<FlowEntry> content = service.contentFlows(DPID).get();
    assertThat(content).isNotEmpty();
    assertThat(new HashSet<>(sw.flows())).containsAll(content);
    assertThat(new HashSet<>(sw.flows())).isEqualTo(new HashSet<>(controller.desiredFlows(DPID)));
    assertThat(content.get(0).toString())
        .contains("set_field:fd6e:7073:1::2->ipv6_dst")
        .contains("40001->udp_dst");

    JsonNode subs = json(send("GET", "/v1/subscriptions", null));
    assertThat(subs.get("subscriptions")).hasSize(1);

    HttpResponse<String> gone =
        send(
            "DELETE",
            "/v1/subscriptions",
            "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"price >= 50001\",\"port\":40001}");
    assertThat(gone.statusCode()).as(gone.body()).isEqualTo(200);
    assertThat(service.contentFlows(DPID).get()).isEmpty();
    assertThat(sw.flows()).noneMatch(f -> f.cookie() == ContentFlows.COOKIE);

    String adId = a.get("id").asText();
    assertThat(send("DELETE", "/v1/advertisements/" + adId, null).statusCode()).isEqualTo(200);
    assertThat(send("DELETE", "/v1/advertisements/" + adId, null).statusCode()).isEqualTo(404);
  }

  @Test
  void anIdempotencyKeyMakesARetryAnswerTheFirstRequest() throws Exception {
    String body = "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"price > 100\",\"port\":40002}";
    Map<String, String> key = Map.of("Idempotency-Key", "order-17");
    HttpResponse<String> first = send("POST", "/v1/subscriptions", body, key);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
    assertThat(json(first).get("id").asText()).isEqualTo("s:order-17");
    HttpResponse<String> again = send("POST", "/v1/subscriptions", body, key);
    assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
    assertThat(json(again).get("id").asText()).isEqualTo("s:order-17");
    assertThat(json(again).get("flow_changes").asInt()).isZero();
    assertThat(json(send("GET", "/v1/subscriptions", null)).get("subscriptions")).hasSize(1);

    HttpResponse<String> other = send("POST", "/v1/subscriptions", body.replace("100", "200"), key);
    assertThat(other.statusCode()).isEqualTo(409);
    assertThat(json(other).at("/error/message").asText()).contains("Idempotency-Key order-17");
    HttpResponse<String> bad =
        send("POST", "/v1/subscriptions", body, Map.of("Idempotency-Key", "a/b"));
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(json(bad).at("/error/message").asText()).contains("Idempotency-Key");

    assertThat(send("DELETE", "/v1/subscriptions/s:order-17", null).statusCode()).isEqualTo(200);
    assertThat(json(send("GET", "/v1/subscriptions", null)).get("subscriptions")).isEmpty();
  }

  @Test
  void refusalsCarryTheirStatusAndReason() throws Exception {
    HttpResponse<String> bad = sub("fd6e:7073:1::2", "price >> 3");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(json(bad).at("/error/message").asText()).contains("price >> 3").contains("^");

    HttpResponse<String> unknown = sub("fd6e:7073:1::99", "price > 3");
    assertThat(unknown.statusCode()).isEqualTo(409);
    assertThat(json(unknown).at("/error/message").asText()).contains("is not known");

    HttpResponse<String> huge = sub("fd6e:7073:1::2", "price > 3 " + "|| price > 3 ".repeat(800));
    assertThat(huge.statusCode()).isEqualTo(413);

    HttpResponse<String> agg = sub("fd6e:7073:1::2", "count() > 5 over 1s");
    assertThat(agg.statusCode()).isEqualTo(400);
    assertThat(json(agg).at("/error/message").asText()).contains("aggregates");

    assertThat(send("POST", "/v1/subscriptions", "{\"host\":\"x\"").statusCode()).isEqualTo(400);
    assertThat(sub("not-an-address", "true").statusCode()).isEqualTo(400);
    assertThat(send("PUT", "/v1/subscriptions", "{}").statusCode()).isEqualTo(405);

    // a host flooding requests is refused with a delay to retry after
    int refused = 0;
    String retryAfter = null;
    for (int i = 0; i < 60 && refused == 0; i++) {
      HttpResponse<String> r = sub("fd6e:7073:1::3", "price == " + i);
      if (r.statusCode() == 429) {
        refused++;
        retryAfter = r.headers().firstValue("Retry-After").orElse(null);
        assertThat(json(r).at("/error/message").asText()).contains("too many requests");
      } else {
        assertThat(r.statusCode()).isEqualTo(201);
      }
    }
    assertThat(refused).isEqualTo(1);
    assertThat(retryAfter).isNotNull();
  }

  @Test
  void aSwitchLostBeforeItAcknowledgesFailsNoRequestAndGetsTheFlowsWhenItReconnects()
      throws Exception {
    HttpResponse<String> ad =
        send("POST", "/v1/advertisements", "{\"host\":\"fd6e:7073:1::1\",\"filter\":\"true\"}");
    assertThat(ad.statusCode()).as(ad.body()).isEqualTo(201);
    sw.setFault(FaultMode.SILENT); // takes the subscription's flow-mods in and applies nothing
    CompletableFuture<HttpResponse<String>> answer =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return sub("fd6e:7073:1::2", "price > 50000");
              } catch (Exception e) {
                throw new CompletionException(e);
              }
            });
    Wait.until(
        "the subscription's flows in the desired state",
        Duration.ofSeconds(10),
        () -> {},
        () -> controller.desiredFlows(DPID).stream().anyMatch(f -> f.toString().contains("40000")));
    sw.disconnect();
    HttpResponse<String> r = answer.get(30, TimeUnit.SECONDS);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    assertThat(sw.flows()).noneMatch(f -> f.toString().contains("40000"));

    sw.setFault(FaultMode.NONE);
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    Wait.until(
        "the switch reconciled to the desired state",
        Duration.ofSeconds(20),
        () -> {},
        () -> new HashSet<>(sw.flows()).equals(new HashSet<>(controller.desiredFlows(DPID))));
    assertThat(sw.flows()).anyMatch(f -> f.toString().contains("40000"));
  }

  @Test
  void withoutAnySwitchRequestsWaitForTheNetwork() throws Exception {
    api.close();
    net.close();
    net = OneSwitchNetwork.startController(); // no switch connects
    controller = net.controller();
    service = attach(controller, new SpatialIndex(QUOTES, 12), PubSubLimits.DEFAULTS);
    api = ControllerApi.start(controller, Optional.of(service), new InetSocketAddress("::1", 0));
    assertThat(sub("fd6e:7073:1::2", "true").statusCode()).isEqualTo(503);
  }

  private HttpResponse<String> sub(String host, String filter) throws Exception {
    String body =
        JSON.createObjectNode()
            .put("host", host)
            .put("filter", filter)
            .put("port", 40000)
            .toString();
    return send("POST", "/v1/subscriptions", body);
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    return send(method, path, body, Map.of());
  }

  private HttpResponse<String> send(
      String method, String path, String body, Map<String, String> headers) throws Exception {
    if (rest == null || rest.port() != api.address().getPort()) {
      rest = new Rest(api.address().getPort()); // one client: requests reuse its connection
    }
    return rest.send(method, path, body, headers);
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return Rest.json(r);
  }
}
