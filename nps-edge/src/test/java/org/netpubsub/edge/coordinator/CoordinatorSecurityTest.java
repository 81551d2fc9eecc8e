package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Tokens;

/** Issue 27's coordinator rows: a rogue PUT /v1/edges, and a request applied by halves. */
class CoordinatorSecurityTest {
  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private EdgeCoordinator coordinator;
  private Authenticator auth;

  @AfterEach
  void stop() {
    if (coordinator != null) {
      coordinator.close();
    }
    if (auth != null) {
      auth.close();
    }
  }

  private int call(String method, String path, String body, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + coordinator.address().getPort() + path))
            .method(method, HttpRequest.BodyPublishers.ofString(body == null ? "" : body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  @Test
  void onlyTheEdgesOwnPrincipalRegistersOrPollsIt() throws Exception {
    Path f = dir.resolve("principals.yaml");
    Files.writeString(
        f,
        "principals:\n"
            + "  - name: paris\n    token_sha256: "
            + Tokens.sha256("t-paris")
            + "\n    edges: [paris]\n"
            + "  - name: mallory\n    token_sha256: "
            + Tokens.sha256("t-mallory")
            + "\n    edges: [rogue]\n");
    auth = Authenticator.load(f, r -> {}, Duration.ZERO);
    coordinator =
        EdgeCoordinator.builder().database("sqlite:" + dir.resolve("c.db")).auth(auth).start();
    String edge = "{\"address\":\"127.0.0.1\",\"port\":7001}";
    assertThat(call("PUT", "/v1/edges/paris", edge, null)).isEqualTo(401);
    assertThat(call("PUT", "/v1/edges/paris", edge, "t-mallory")).isEqualTo(403);
    assertThat(call("PUT", "/v1/edges/paris", edge, "t-paris")).isEqualTo(200);
    assertThat(call("POST", "/v1/edges/paris/filters", "{\"added\":[\"#\"]}", "t-mallory"))
        .isEqualTo(403);
    assertThat(call("GET", "/v1/edges/paris/changes?after=0&wait_ms=0", null, "t-mallory"))
        .isEqualTo(403);
    assertThat(call("DELETE", "/v1/edges/paris", null, "t-mallory")).isEqualTo(403);
    assertThat(coordinator.edges().keySet()).extracting(Edge::name).containsExactly("paris");
    assertThat(call("GET", "/v1/edges", null, "t-mallory")).isEqualTo(200);
  }

  @Test
  void aRequestWithMoreFiltersThanTheCapIs413AndChangesNothing() throws Exception {
    coordinator = EdgeCoordinator.builder().database("sqlite:" + dir.resolve("c.db")).start();
    assertThat(call("PUT", "/v1/edges/paris", "{\"address\":\"127.0.0.1\",\"port\":7001}", null))
        .isEqualTo(200);
    StringBuilder many = new StringBuilder("{\"added\":[");
    for (int i = 0; i <= CoordinatorApi.MAX_FILTERS_PER_REQUEST; i++) {
      many.append(i == 0 ? "" : ",").append('"').append(Integer.toString(i, 36)).append('"');
    }
    String body = many.append("]}").toString();
    assertThat(body.length()).isLessThan(CoordinatorApi.MAX_BODY); // the cap, not the body limit
    assertThat(call("POST", "/v1/edges/paris/filters", body, null)).isEqualTo(413);
    assertThat(coordinator.edges().values()).allSatisfy(f -> assertThat(f).isEmpty());
  }

  @Test
  void aRequestFailingMidwayLeavesNothingInTheDatabase() {
    String db = dir.resolve("t.db").toString();
    List<String> filters = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      filters.add("f/" + i);
    }
    try (CoordinatorStore s = CoordinatorStore.open("sqlite:" + db)) {
      s.putEdge(new Edge("paris", "127.0.0.1", 7001));
      assertThatThrownBy(
              () ->
                  s.transaction(
                      () -> {
                        s.addFilters("paris", filters.subList(0, 2149));
                        throw new IllegalStateException("killed mid-request");
                      }))
          .hasMessage("killed mid-request");
      s.transaction(() -> s.addFilters("paris", filters.subList(0, 10)));
    }
    try (CoordinatorStore s = CoordinatorStore.open("sqlite:" + db)) {
      assertThat(s.edges().values().iterator().next()).hasSize(10);
    }
  }
}
