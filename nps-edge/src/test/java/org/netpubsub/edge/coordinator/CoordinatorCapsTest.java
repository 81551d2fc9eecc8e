package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: the coordinator's caps on edges, filters per edge and filters per request answer 429 or
 * 413 with the reason, and a refused request changes nothing, in memory or in the database. Small
 * caps (2 edges, 5 filters an edge, 3 a request) reach them in a few requests.
 */
class CoordinatorCapsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final CoordinatorCaps CAPS = new CoordinatorCaps(2, 5, 3);
  // no agent polls here: a filter change waits this long for the other edge's acknowledgement
  private static final Duration ACK = Duration.ofMillis(20);

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private EdgeCoordinator coordinator;

  @BeforeEach
  void start() throws Exception {
    coordinator = EdgeCoordinator.builder().database(db()).caps(CAPS).ackTimeout(ACK).start();
  }

  @AfterEach
  void stop() {
    if (coordinator != null) {
      coordinator.close();
    }
  }

  private String db() {
    return "sqlite:" + dir.resolve("c.db");
  }

  private HttpResponse<String> call(String method, String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + coordinator.address().getPort() + path))
            .method(method, HttpRequest.BodyPublishers.ofString(body == null ? "" : body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String edge(int port) {
    return "{\"address\":\"127.0.0.1\",\"port\":" + port + "}";
  }

  private static String message(HttpResponse<String> r) throws Exception {
    return JSON.readTree(r.body()).at("/error/message").asText();
  }

  /** Every edge and its filters, by name, as the coordinator holds them. */
  private Map<String, Set<String>> held() {
    Map<String, Set<String>> out = new TreeMap<>();
    coordinator.edges().forEach((e, f) -> out.put(e.name() + "@" + e.port(), new TreeSet<>(f)));
    return out;
  }

  /** The same, read back from the database by a coordinator started on it anew. */
  private Map<String, Set<String>> heldAfterRestart() throws Exception {
    coordinator.close();
    coordinator = EdgeCoordinator.builder().database(db()).caps(CAPS).ackTimeout(ACK).start();
    return held();
  }

  private long version() throws Exception {
    HttpResponse<String> r = call("GET", "/v1/edges", null);
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode v = JSON.readTree(r.body()).get("version");
    assertThat(v).isNotNull();
    return v.asLong();
  }

  @Test
  void aNewEdgeBeyondTheCapIs429AndChangesNothingButAKnownEdgeMayChange() throws Exception {
    assertThat(call("PUT", "/v1/edges/paris", edge(7001)).statusCode()).isEqualTo(200);
    assertThat(call("PUT", "/v1/edges/rome", edge(7002)).statusCode()).isEqualTo(200);
    Map<String, Set<String>> before = held();
    long version = version();

    HttpResponse<String> third = call("PUT", "/v1/edges/oslo", edge(7003));
    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(message(third)).isEqualTo("the coordinator has 2 edges already (the limit)");
    assertThat(held()).isEqualTo(before);
    assertThat(version()).isEqualTo(version);

    // re-registering a known edge at the cap (it moved) is not a new edge
    assertThat(call("PUT", "/v1/edges/rome", edge(7012)).statusCode()).isEqualTo(200);
    assertThat(heldAfterRestart()).containsOnlyKeys("paris@7001", "rome@7012");
  }

  @Test
  void moreFiltersInOneRequestThanTheCapIs413AndChangesNothing() throws Exception {
    assertThat(call("PUT", "/v1/edges/paris", edge(7001)).statusCode()).isEqualTo(200);
    assertThat(call("POST", "/v1/edges/paris/filters", "{\"added\":[\"a\"]}").statusCode())
        .isEqualTo(200);
    long version = version();

    // added and removed count together
    HttpResponse<String> four =
        call(
            "POST",
            "/v1/edges/paris/filters",
            "{\"added\":[\"b\",\"c\"],\"removed\":[\"a\",\"x\"]}");
    assertThat(four.statusCode()).isEqualTo(413);
    assertThat(message(four)).isEqualTo("4 filters in one request; the limit is 3");
    assertThat(version()).isEqualTo(version);
    assertThat(heldAfterRestart()).isEqualTo(Map.of("paris@7001", Set.of("a")));
  }

  @Test
  void filtersBeyondAnEdgesCapAre429AndChangeNothing() throws Exception {
    assertThat(call("PUT", "/v1/edges/paris", edge(7001)).statusCode()).isEqualTo(200);
    assertThat(call("PUT", "/v1/edges/rome", edge(7002)).statusCode()).isEqualTo(200);
    for (String body : List.of("{\"added\":[\"a\",\"b\",\"c\"]}", "{\"added\":[\"d\",\"e\"]}")) {
      assertThat(call("POST", "/v1/edges/paris/filters", body).statusCode()).isEqualTo(200);
    }
    long version = version();

    HttpResponse<String> sixth = call("POST", "/v1/edges/paris/filters", "{\"added\":[\"f\"]}");
    assertThat(sixth.statusCode()).isEqualTo(429);
    assertThat(message(sixth)).isEqualTo("edge 'paris' would hold over 5 filters (the limit)");
    assertThat(version()).isEqualTo(version);
    // the cap is per edge: another edge still takes filters
    assertThat(call("POST", "/v1/edges/rome/filters", "{\"added\":[\"f\"]}").statusCode())
        .isEqualTo(200);
    assertThat(heldAfterRestart())
        .isEqualTo(Map.of("paris@7001", Set.of("a", "b", "c", "d", "e"), "rome@7002", Set.of("f")));
  }
}
