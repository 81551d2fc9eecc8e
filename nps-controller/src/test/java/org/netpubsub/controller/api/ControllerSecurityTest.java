package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.api.AuthenticatedApi.principal;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.testing.Rest;

/**
 * Issue 27's REST attacks on the controller, each refused (every one succeeded before): withdrawing
 * another host's subscription, moving another host, rotating host fields past the rate limit,
 * expensive filters; and a subscription's cover is cut to its principal's region.
 */
class ControllerSecurityTest {
  static final String ALICE = "fd6e:7073:1::2";
  static final String BOB = "fd6e:7073:1::3";
  @TempDir Path dir;
  AuthenticatedApi fixture;
  NetworkController controller;
  PubSubService service;
  ControllerApi api;

  @BeforeEach
  void start() throws Exception {
    fixture =
        AuthenticatedApi.start(
            dir,
            PubSubLimits.DEFAULTS.withRate(1, 10),
            principal("alice", "hosts: ['" + ALICE + "']\n    subscribe: 'price < 100'"),
            principal(
                "bob", "hosts: ['" + BOB + "']\n    subscribe: 'true'\n    advertise: 'true'"),
            principal("root", "admin: [hosts, groups]\n    subscribe: 'true'"),
            principal("reader", "admin: [read]"));
    controller = fixture.controller;
    service = fixture.service;
    api = fixture.api;
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  private HttpResponse<String> send(String who, String method, String path, String body)
      throws Exception {
    return fixture.send(who, method, path, body);
  }

  private HttpResponse<String> sub(String who, String host, String filter) throws Exception {
    return fixture.subscribe(who, host, filter);
  }

  @Test
  void anotherPrincipalCannotListOrWithdrawASubscription() throws Exception {
    HttpResponse<String> s = sub("bob", BOB, "price > 10");
    assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
    String id = Rest.json(s).get("id").asText();
    assertThat(id).matches("s-[0-9a-f]{24}"); // 96 random bits, not a counter
    assertThat(sub("bob", BOB, "price > 11").body()).doesNotContain(id);
    assertThat(send(null, "DELETE", "/v1/subscriptions/" + id, null).statusCode()).isEqualTo(401);
    HttpResponse<String> theft = send("alice", "DELETE", "/v1/subscriptions/" + id, null);
    assertThat(theft.statusCode()).as(theft.body()).isEqualTo(403);
    HttpResponse<String> byBody =
        send(
            "alice",
            "DELETE",
            "/v1/subscriptions",
            "{\"host\":\"" + BOB + "\",\"filter\":\"price > 10\",\"port\":40000}");
    assertThat(byBody.statusCode()).isEqualTo(403);
    assertThat(send("alice", "GET", "/v1/subscriptions", null).body()).doesNotContain(id);
    assertThat(send("bob", "GET", "/v1/subscriptions", null).body()).contains(id);
    assertThat(send("root", "GET", "/v1/subscriptions", null).body()).contains(id);
    // a reader (the dashboard's principal) lists everyone's requests and withdraws none
    assertThat(send("reader", "GET", "/v1/subscriptions", null).body()).contains(id);
    assertThat(send("reader", "DELETE", "/v1/subscriptions/" + id, null).statusCode())
        .isEqualTo(403);
    assertThat(service.requests(PubSubRequest.Kind.SUBSCRIPTION)).hasSize(2);
    assertThat(send("bob", "DELETE", "/v1/subscriptions/" + id, null).statusCode()).isEqualTo(200);
  }

  @Test
  void aPrincipalCannotMoveAnotherHost() throws Exception {
    String move =
        "{\"address\":\"" + BOB + "\",\"mac\":\"02:00:00:00:00:66\",\"dpid\":\"2a\",\"port\":4}";
    HttpResponse<String> r = send("alice", "POST", "/v1/hosts", move);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
    assertThat(Rest.json(r).at("/error/message").asText()).contains("alice").contains(BOB);
    assertThat(controller.topology().host(org.netpubsub.content.address.Ipv6Address.parse(BOB)))
        .hasValueSatisfying(h -> assertThat(h.attachment().port()).isEqualTo(3));
    assertThat(send("alice", "POST", "/v1/subscriptions", "{}").statusCode()).isEqualTo(400);
    assertThat(sub("alice", BOB, "price < 5").statusCode()).isEqualTo(403);
  }

  @Test
  void rotatingHostFieldsDoNotEscapeTheRateLimitNorLockOthersOut() throws Exception {
    int refused = 0;
    for (int i = 0; i < 40 && refused == 0; i++) {
      // an admin of hosts may name any host: the bucket is still its own (principal and source)
      HttpResponse<String> r = sub("root", "fd6e:7073:1::" + (1 + i % 4), "price == " + i);
      if (r.statusCode() == 429) {
        refused++;
      } else {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      }
    }
    assertThat(refused).isEqualTo(1);
    assertThat(sub("bob", BOB, "price == 7").statusCode()).isEqualTo(201);
  }

  @Test
  void expensiveFiltersAreRefused422AndTheApiStaysResponsive() throws Exception {
    StringBuilder f = new StringBuilder();
    for (int i = 1; i <= 14; i++) {
      f.append(i > 1 ? " && " : "")
          .append("!(price == ")
          .append(i)
          .append(" && symbol == \"x")
          .append(i)
          .append("\")");
    }
    List<CompletableFuture<HttpResponse<String>>> attacks = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      attacks.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return sub("bob", BOB, f.toString());
                } catch (Exception e) {
                  throw new CompletionException(e);
                }
              }));
    }
    assertThat(send("bob", "GET", "/v1/topology", null).statusCode()).isEqualTo(200);
    // another principal's cheap filter is served meanwhile: bob's share is his, not everyone's
    HttpResponse<String> cheap = sub("alice", ALICE, "price < 5");
    assertThat(cheap.statusCode()).as(cheap.body()).isEqualTo(201);
    for (CompletableFuture<HttpResponse<String>> a : attacks) {
      HttpResponse<String> r = a.join();
      // 422 over the normalisation budget (or 429 if the sender's turns run out)
      assertThat(r.statusCode()).as(r.body()).isIn(422, 429);
    }
    HttpResponse<String> one = sub("root", BOB, f.toString());
    assertThat(one.statusCode()).isEqualTo(422);
    assertThat(Rest.json(one).at("/error/message").asText()).contains("normal form");
  }

  @Test
  void aSubscriptionsCoverIsCutToItsRegion() throws Exception {
    HttpResponse<String> r = sub("alice", ALICE, "true");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    SpatialIndex index = service.index();
    DzSet region =
        index.cover(
            Normalizer.toDnf(FilterParser.parse(index.schema(), "price < 100")),
            service.limits().maxCells());
    DzSet everything =
        index.cover(
            Normalizer.toDnf(FilterParser.parse(index.schema(), "true")),
            service.limits().maxCells());
    PubSubRequest s = service.requests(PubSubRequest.Kind.SUBSCRIPTION).getFirst();
    assertThat(s.filter()).isEqualTo("true");
    assertThat(s.cells()).isEqualTo(region).isNotEqualTo(everything);
    HttpResponse<String> outside = sub("alice", ALICE, "price > 500");
    assertThat(outside.statusCode()).isEqualTo(403);
    JsonNode e = Rest.json(outside).get("error");
    assertThat(e.get("message").asText()).contains("outside the region");
    assertThat(
            send(
                    "alice",
                    "POST",
                    "/v1/advertisements",
                    "{\"host\":\"" + ALICE + "\",\"filter\":\"true\"}")
                .statusCode())
        .isEqualTo(403); // alice has no advertise region
  }
}
