package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.api.AuthenticatedApi.principal;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.testing.Rest;

/**
 * Subscribers' reports (issue 21 part 3): {@code POST /v1/subscriptions/{id}/stats} from the owner
 * only, malformed bodies 400 naming the field, {@code GET /v1/pubsub/stats} per subscription and in
 * total, and the Prometheus counters.
 */
class SubscriptionStatsApiTest {
  static final String ALICE = ControllerSecurityTest.ALICE;
  static final String BOB = ControllerSecurityTest.BOB;
  @TempDir Path dir;
  AuthenticatedApi fixture;

  @BeforeEach
  void start() throws Exception {
    fixture =
        AuthenticatedApi.start(
            dir,
            PubSubLimits.DEFAULTS,
            principal("alice", "hosts: ['" + ALICE + "']\n    subscribe: 'true'"),
            principal("bob", "hosts: ['" + BOB + "']\n    subscribe: 'true'"),
            principal("root", "admin: [hosts]\n    subscribe: 'true'"));
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  private String subscribe(String who, String host, String filter) throws Exception {
    HttpResponse<String> r = fixture.subscribe(who, host, filter);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return Rest.json(r).get("id").asText();
  }

  private HttpResponse<String> report(String who, String id, String body) throws Exception {
    return fixture.send(who, "POST", "/v1/subscriptions/" + id + "/stats", body);
  }

  private JsonNode stats(String who) throws Exception {
    HttpResponse<String> r = fixture.send(who, "GET", "/v1/pubsub/stats", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Rest.json(r);
  }

  @Test
  void reportsAreShownPerSubscriptionAndInTotal() throws Exception {
    String a = subscribe("alice", ALICE, "price > 10");
    String b = subscribe("bob", BOB, "symbol == \"IBM\"");
    assertThat(report("alice", a, "{\"received\":100,\"false_positives\":25}").statusCode())
        .isEqualTo(200);
    assertThat(report("bob", b, "{\"received\":300,\"false_positives\":75}").statusCode())
        .isEqualTo(200);
    // cumulative: a later report replaces the earlier one, it does not add to it
    assertThat(report("bob", b, "{\"received\":400,\"false_positives\":100}").statusCode())
        .isEqualTo(200);

    JsonNode all = stats("root");
    assertThat(all.at("/total/received").asLong()).isEqualTo(500);
    assertThat(all.at("/total/false_positives").asLong()).isEqualTo(125);
    assertThat(all.at("/total/false_positive_rate").asDouble()).isEqualTo(0.25);
    assertThat(all.at("/total/subscriptions_reporting").asInt()).isEqualTo(2);
    assertThat(all.get("subscriptions")).hasSize(2);
    JsonNode own = stats("alice");
    assertThat(own.get("subscriptions")).hasSize(1);
    assertThat(own.at("/subscriptions/0/id").asText()).isEqualTo(a);
    assertThat(own.at("/subscriptions/0/filter").asText()).isEqualTo("price > 10");
    assertThat(own.at("/subscriptions/0/false_positive_rate").asDouble()).isEqualTo(0.25);
    assertThat(own.at("/total/received").asLong()).isEqualTo(100);

    String metrics = fixture.send("root", "GET", "/metrics", null).body();
    assertThat(metrics).contains("nps_subscriber_received_total 500.0");
    assertThat(metrics).contains("nps_subscriber_false_positives_total 125.0");
    assertThat(metrics).contains("nps_subscriber_false_positive_ratio 0.25");

    // a withdrawn subscription's report goes with it
    assertThat(fixture.send("bob", "DELETE", "/v1/subscriptions/" + b, null).statusCode())
        .isEqualTo(200);
    assertThat(stats("root").at("/total/received").asLong()).isEqualTo(100);
  }

  @Test
  void onlyTheOwnerReportsAndMalformedReportsAreRefusedNamingTheField() throws Exception {
    String b = subscribe("bob", BOB, "price > 10");
    HttpResponse<String> theft = report("alice", b, "{\"received\":10,\"false_positives\":10}");
    assertThat(theft.statusCode()).as(theft.body()).isEqualTo(403);
    assertThat(Rest.json(theft).at("/error/message").asText()).contains("alice").contains(b);
    assertThat(report(null, b, "{\"received\":1,\"false_positives\":0}").statusCode())
        .isEqualTo(401);
    assertThat(report("root", b, "{\"received\":4,\"false_positives\":1}").statusCode())
        .isEqualTo(200);
    assertThat(stats("root").at("/total/received").asLong()).isEqualTo(4);
    assertThat(
            report("bob", "s-000000000000000000000000", "{\"received\":1,\"false_positives\":0}")
                .statusCode())
        .isEqualTo(404);

    // malformed reports: 400 naming the field, nothing kept
    String a = subscribe("alice", ALICE, "price > 10");
    String[][] cases = {
      {"{\"false_positives\":1}", "received"},
      {"{\"received\":\"ten\",\"false_positives\":1}", "received"},
      {"{\"received\":10,\"false_positives\":-1}", "false_positives"},
      {"{\"received\":1.5,\"false_positives\":1}", "received"},
      {"{\"received\":10,\"false_positives\":11}", "false_positives"},
      {"{\"received\":10,\"false_positives\":1,\"dropped\":3}", "dropped"},
      {"{\"received\":10,\"false_positives\":18446744073709551615}", "false_positives"},
    };
    for (String[] c : cases) {
      HttpResponse<String> r = report("alice", a, c[0]);
      assertThat(r.statusCode()).as(c[0] + " " + r.body()).isEqualTo(400);
      assertThat(Rest.json(r).at("/error/field").asText()).as(c[0]).isEqualTo(c[1]);
    }
    assertThat(report("alice", a, "not json").statusCode()).isEqualTo(400);
    assertThat(stats("alice").at("/total/subscriptions_reporting").asInt()).isZero();
  }
}
