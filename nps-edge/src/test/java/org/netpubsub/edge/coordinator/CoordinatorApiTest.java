package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REST API over HTTP: the contract, strictness and the long-poll. */
class CoordinatorApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private EdgeCoordinator coordinator;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    coordinator =
        EdgeCoordinator.builder()
            .database("sqlite:" + dir.resolve("c.db"))
            .changeWait(Duration.ofMillis(300))
            .ackTimeout(Duration.ofMillis(300))
            .start();
  }

  @AfterEach
  void stop() {
    coordinator.close();
  }

  private record Answer(int status, JsonNode body) {}

  private Answer call(String method, String path, String body) throws Exception {
    URI u = URI.create("http://127.0.0.1:" + coordinator.address().getPort() + path);
    HttpRequest.BodyPublisher p =
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body);
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(u).method(method, p).build(),
            HttpResponse.BodyHandlers.ofString());
    return new Answer(r.statusCode(), JSON.readTree(r.body()));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void registerReportRouteAndPoll() throws Exception {
    assertThat(call("PUT", "/v1/edges/a", "{\"address\":\"127.0.0.1\",\"port\":7001}").status())
        .isEqualTo(200);
    Answer b = call("PUT", "/v1/edges/b", "{\"address\":\"::1\",\"port\":7002}");
    assertThat(b.body().get("mode").asText()).isEqualTo("spray");
    long v =
        call("GET", "/v1/edges/a/changes?after=0&wait_ms=0", null).body().get("version").asLong();
    call("GET", "/v1/edges/a/changes?after=" + v + "&wait_ms=0", null);

    Answer r = call("GET", "/v1/routes?topic=" + enc("s/1") + "&origin=a", null);
    assertThat(r.body().get("targets")).isEmpty();

    // a long-poll from a, waiting, is answered by b's new filter
    CompletableFuture<Answer> poll =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return call("GET", "/v1/edges/a/changes?after=" + v + "&wait_ms=5000", null);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Answer f = call("POST", "/v1/edges/b/filters", "{\"added\":[\"s/+\"]}");
    assertThat(f.status()).isEqualTo(200);
    assertThat(f.body().get("changed").get(0).asText()).isEqualTo("s/+");
    Answer changes = poll.get();
    assertThat(changes.body().get("topics").get(0).asText()).isEqualTo("s/1");

    r = call("GET", "/v1/routes?topic=" + enc("s/1") + "&origin=a&retain=false", null);
    JsonNode t = r.body().get("targets").get(0);
    assertThat(t.get("edge").asText()).isEqualTo("b");
    assertThat(t.get("port").asInt()).isEqualTo(7002);

    JsonNode edges = call("GET", "/v1/edges", null).body().get("edges");
    assertThat(edges).hasSize(2);
    assertThat(call("DELETE", "/v1/edges/b", null).status()).isEqualTo(200);
    assertThat(call("GET", "/v1/routes?topic=s/1&origin=a", null).body().get("targets")).isEmpty();
  }

  @Test
  void badRequestsGetAClearErrorAndChangeNothing() throws Exception {
    call("PUT", "/v1/edges/a", "{\"address\":\"127.0.0.1\",\"port\":7001}");
    assertThat(call("PUT", "/v1/edges/a", "{\"address\":\"x\",\"port\":\"7\"}").status())
        .isEqualTo(400);
    Answer unknown = call("PUT", "/v1/edges/a", "{\"address\":\"x\",\"port\":7,\"colour\":1}");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body().at("/error/message").asText()).contains("colour");
    assertThat(unknown.body().at("/error/field").asText()).isEqualTo("colour");
    assertThat(unknown.body().at("/error/code").asText()).isEqualTo("bad_request");
    assertThat(call("PUT", "/v1/edges/bad%20name", "{\"address\":\"x\",\"port\":7}").status())
        .isEqualTo(400);
    assertThat(call("PUT", "/v1/edges/a", "{not json").status()).isEqualTo(400);
    assertThat(call("PUT", "/v1/edges/a", "x".repeat(70_000)).status()).isEqualTo(413);
    Answer bad = call("POST", "/v1/edges/a/filters", "{\"added\":[\"ok\",\"a/#/b\"]}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.body().at("/error/message").asText()).contains("a/#/b");
    assertThat(call("POST", "/v1/edges/zz/filters", "{\"added\":[\"ok\"]}").status())
        .isEqualTo(404);
    assertThat(call("GET", "/v1/routes?topic=a/%2B&origin=a", null).status()).isEqualTo(400);
    assertThat(call("GET", "/v1/routes?topic=a&origin=zz", null).status()).isEqualTo(404);
    assertThat(call("GET", "/v1/edges/a/changes?after=x", null).status()).isEqualTo(400);
    assertThat(call("POST", "/v1/routes", "{}").status()).isEqualTo(405);
    assertThat(call("GET", "/v1/edges/a/changes?after=x", null).body().at("/error/field").asText())
        .isEqualTo("after");
    assertThat(call("GET", "/v1/nothing", null).status()).isEqualTo(404);
    // nothing was half-applied
    assertThat(coordinator.edges().values().iterator().next()).isEmpty();
    assertThat(coordinator.edges().keySet().iterator().next().port()).isEqualTo(7001);
  }

  @Test
  void theOpenApiDocumentListsExactlyTheRoutesServed() throws Exception {
    JsonNode doc = call("GET", "/v1/openapi.json", null).body();
    java.util.TreeSet<String> documented = new java.util.TreeSet<>();
    doc.get("paths")
        .fields()
        .forEachRemaining(
            p ->
                p.getValue()
                    .fieldNames()
                    .forEachRemaining(m -> documented.add(m.toUpperCase() + " " + p.getKey())));
    assertThat(documented)
        .isEqualTo(new java.util.TreeSet<>(((RunningCoordinator) coordinator).routes()));
    assertThat(documented).contains("GET /v1/edges/{name}/changes", "GET /metrics");
  }

  @Test
  void metricsShowTheEdgesAndRouteLookups() throws Exception {
    call("PUT", "/v1/edges/a", "{\"address\":\"127.0.0.1\",\"port\":7001}");
    call("GET", "/v1/routes?topic=s&origin=a", null);
    URI u = URI.create("http://127.0.0.1:" + coordinator.address().getPort() + "/metrics");
    String text =
        http.send(HttpRequest.newBuilder(u).build(), HttpResponse.BodyHandlers.ofString()).body();
    assertThat(text)
        .contains("nps_coordinator_edges 1.0")
        .contains("nps_coordinator_route_lookups_total 1.0")
        .contains("nps_http_requests_seconds_bucket{");
  }

  @Test
  void anUnreachableOrUnknownDatabaseIsRefused() {
    assertThatThrownBy(
            () -> EdgeCoordinator.builder().database("postgresql://127.0.0.1:1/nps").start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot open PostgreSQL database");
    assertThatThrownBy(() -> EdgeCoordinator.builder().database("mysql:x").start())
        .hasMessageContaining("sqlite:PATH");
  }
}
