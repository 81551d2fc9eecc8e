package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Tokens;

/**
 * {@code GET /v1/edges/{name}/keys?own=true}: the edge's own key, the keys of every other
 * registered edge not revoked, and the revoked list, to the edge's principal or an admin of edges
 * only (403 otherwise, counted); a revoked edge gets no keys at all; the revoked file is read again
 * at each request and a bad one keeps the list held; a revoked edge leaves routing at the next read
 * of the file and its registration and reports are refused until the revocation is lifted.
 */
class CoordinatorOwnKeysTest {
  private static final String K1 = "11".repeat(32);
  private static final String K2 = "22".repeat(32);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private EdgeCoordinator coordinator;
  private Authenticator auth;
  private Path revokedFile;

  @BeforeEach
  void start() throws Exception {
    Path f = dir.resolve("principals.yaml");
    Files.writeString(
        f,
        "principals:\n"
            + principal("paris", "edges: [paris]")
            + principal("oslo", "edges: [oslo]")
            + principal("rome", "edges: [rome]")
            + principal("mallory", "edges: [rogue]")
            + principal("operator", "admin: [edges]"));
    auth = Authenticator.load(f, r -> {}, Duration.ZERO);
    Path keyFile = dir.resolve("datagram.key");
    Files.writeString(keyFile, K1 + "\n" + K2 + "\n");
    revokedFile = dir.resolve("revoked");
    Files.writeString(revokedFile, "# none yet\n");
    coordinator =
        EdgeCoordinator.builder()
            .database("sqlite:" + dir.resolve("c.db"))
            .auth(auth)
            .datagramKeys(keyFile)
            .revokedEdges(revokedFile)
            // no agent polls here: a registration would wait 2 s for acknowledgements otherwise
            .ackTimeout(Duration.ofMillis(50))
            .start();
    int port = 7000;
    for (String e : List.of("paris", "oslo", "rome")) {
      HttpResponse<String> r =
          send(
              "PUT",
              "/v1/edges/" + e,
              "t-" + e,
              "{\"address\":\"127.0.0.1\",\"port\":" + port++ + "}");
      assertThat(r.statusCode()).isEqualTo(200);
    }
  }

  private static String principal(String name, String rights) {
    return "  - name: "
        + name
        + "\n    token_sha256: "
        + Tokens.sha256("t-" + name)
        + "\n    "
        + rights
        + "\n";
  }

  @AfterEach
  void stop() {
    if (coordinator != null) {
      coordinator.close();
    }
    if (auth != null) {
      auth.close();
    }
  }

  private HttpResponse<String> send(String method, String path, String token, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + coordinator.address().getPort() + path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path, String token) throws Exception {
    return send("GET", path, token, null);
  }

  private static List<String> derived(String edge) {
    return EdgeKeys.derive(List.of(HexFormat.of().parseHex(K1), HexFormat.of().parseHex(K2)), edge)
        .stream()
        .map(HexFormat.of()::formatHex)
        .toList();
  }

  private static List<String> texts(JsonNode a) {
    List<String> out = new ArrayList<>();
    a.forEach(k -> out.add(k.asText()));
    return out;
  }

  private static Map<String, List<String>> senders(JsonNode answer) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    answer.path("senders").forEach(s -> m.put(s.path("edge").asText(), texts(s.path("keys"))));
    return m;
  }

  @Test
  void anEdgeGetsItsOwnAndItsSendersKeysAndNoOtherPrincipalDoes() throws Exception {
    HttpResponse<String> r = get("/v1/edges/paris/keys?own=true", "t-paris");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
    JsonNode a = JSON.readTree(r.body());
    assertThat(a.path("edge").asText()).isEqualTo("paris");
    assertThat(texts(a.path("keys"))).isEqualTo(derived("paris")); // one per deployment key
    assertThat(senders(a)).isEqualTo(Map.of("oslo", derived("oslo"), "rome", derived("rome")));
    assertThat(texts(a.path("revoked"))).isEmpty();
    assertThat(r.body()).doesNotContain(K1).doesNotContain(K2); // never the deployment keys

    // another edge's principal: 403 and counted, nothing of the keys in the answer
    HttpResponse<String> other = get("/v1/edges/paris/keys?own=true", "t-mallory");
    assertThat(other.statusCode()).isEqualTo(403);
    assertThat(other.body())
        .contains("act as edge 'paris'")
        .doesNotContain(derived("paris").get(0));
    assertThat(get("/v1/edges/paris/keys?own=true", "t-oslo").statusCode()).isEqualTo(403);
    assertThat(get("/metrics", "t-paris").body())
        .containsPattern("nps_http_auth_refused_total\\{[^}]*reason=\"forbidden\"[^}]*\\} 2\\.0")
        .contains("nps_coordinator_agent_keys_served_total 1.0")
        .doesNotContain(derived("paris").get(0));
    assertThat(get("/v1/edges/paris/keys?own=true", "t-operator").statusCode()).isEqualTo(200);

    HttpResponse<String> bad = get("/v1/edges/paris/keys?own=yes", "t-paris");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(bad.body()).at("/error/field").asText()).isEqualTo("own");
    assertThat(get("/v1/edges/paris/keys?whose=all", "t-paris").statusCode()).isEqualTo(400);
  }

  @Test
  void aRevokedOrRemovedEdgeLeavesTheSendersAndARevokedEdgeGetsNoKeys() throws Exception {
    Files.writeString(revokedFile, "oslo\n");
    JsonNode a = JSON.readTree(get("/v1/edges/paris/keys?own=true", "t-paris").body());
    assertThat(senders(a)).containsOnlyKeys("rome");
    assertThat(texts(a.path("revoked"))).containsExactly("oslo");
    for (String q : List.of("?own=true", "")) {
      HttpResponse<String> r = get("/v1/edges/oslo/keys" + q, "t-oslo");
      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(r.body())
          .contains("revoked")
          .doesNotContain(K1)
          .doesNotContain(derived("oslo").get(0));
    }

    assertThat(send("DELETE", "/v1/edges/rome", "t-rome", null).statusCode()).isEqualTo(200);
    assertThat(senders(JSON.readTree(get("/v1/edges/paris/keys?own=true", "t-paris").body())))
        .isEmpty();

    Files.writeString(revokedFile, "not an edge name!\n"); // a bad edit never un-revokes
    JsonNode kept = JSON.readTree(get("/v1/edges/paris/keys?own=true", "t-paris").body());
    assertThat(texts(kept.path("revoked"))).containsExactly("oslo");
    assertThat(get("/metrics", "t-paris").body())
        .contains("nps_coordinator_revoked_file_invalid_total 1.0");
    Files.writeString(revokedFile, "");
    assertThat(get("/v1/edges/oslo/keys?own=true", "t-oslo").statusCode()).isEqualTo(200);
  }

  private List<String> targets(String topic, String origin) throws Exception {
    HttpResponse<String> r = get("/v1/routes?topic=" + topic + "&origin=" + origin, "t-" + origin);
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    JSON.readTree(r.body()).path("targets").forEach(t -> out.add(t.path("edge").asText()));
    return out;
  }

  private List<String> registered() {
    return coordinator.edges().keySet().stream().map(Edge::name).sorted().toList();
  }

  @Test
  void aRevokedEdgeLeavesRoutingAtTheNextReadAndIsRefusedUntilTheRevocationIsLifted()
      throws Exception {
    for (String e : List.of("oslo", "rome")) {
      String body = "{\"added\":[\"k/#\"]}";
      assertThat(send("POST", "/v1/edges/" + e + "/filters", "t-" + e, body).statusCode())
          .isEqualTo(200);
    }
    assertThat(targets("k/x", "paris")).containsExactlyInAnyOrder("oslo", "rome");

    Files.writeString(revokedFile, "rome\n");
    // the next read of the file (here paris's keys request) removes rome from routing
    assertThat(get("/v1/edges/paris/keys?own=true", "t-paris").statusCode()).isEqualTo(200);
    assertThat(registered()).containsExactly("oslo", "paris");
    assertThat(targets("k/x", "paris")).containsExactly("oslo");
    assertThat(coordinator.edges()).containsValue(java.util.Set.of("k/#")); // oslo's, unchanged
    assertThat(get("/v1/routes?topic=k/x&origin=rome", "t-rome").statusCode()).isEqualTo(404);

    // its registration and reports are refused with the reason, and counted
    for (String[] q :
        List.of(
            new String[] {"PUT", "/v1/edges/rome", "{\"address\":\"127.0.0.1\",\"port\":7009}"},
            new String[] {"POST", "/v1/edges/rome/filters", "{\"added\":[\"k/#\"]}"},
            new String[] {"POST", "/v1/edges/rome/exchanges", "{\"deleted\":[]}"})) {
      HttpResponse<String> r = send(q[0], q[1], "t-rome", q[2]);
      assertThat(r.statusCode()).as(q[1]).isEqualTo(403);
      assertThat(r.body()).contains("for edge 'rome': it is revoked");
    }
    assertThat(registered()).containsExactly("oslo", "paris");
    assertThat(get("/metrics", "t-paris").body())
        .containsPattern("nps_http_auth_refused_total\\{[^}]*reason=\"forbidden\"[^}]*\\} 3\\.0")
        .contains("nps_coordinator_revoked_removed_total 1.0");

    // the removal is durable: a coordinator restarted on the same database has no rome
    coordinator.close();
    coordinator =
        EdgeCoordinator.builder()
            .database("sqlite:" + dir.resolve("c.db"))
            .auth(auth)
            .datagramKeys(dir.resolve("datagram.key"))
            .revokedEdges(revokedFile)
            .revocationSweep(Duration.ofMillis(20))
            .ackTimeout(Duration.ofMillis(50))
            .start();
    assertThat(registered()).containsExactly("oslo", "paris");

    // lifted: rome may register again; revoked again, the sweep alone removes it (no request)
    Files.writeString(revokedFile, "");
    HttpResponse<String> back =
        send("PUT", "/v1/edges/rome", "t-rome", "{\"address\":\"127.0.0.1\",\"port\":7002}");
    assertThat(back.statusCode()).isEqualTo(200);
    assertThat(registered()).containsExactly("oslo", "paris", "rome");
    Files.writeString(revokedFile, "rome\n");
    org.netpubsub.client.Poll.until(
        "the sweep removes rome", Duration.ofSeconds(10), () -> !registered().contains("rome"));
    assertThat(registered()).containsExactly("oslo", "paris");
  }

  @Test
  void revokedEdgesNeedTheKeysAndAParsableFile() throws Exception {
    assertThatThrownBy(
            () ->
                EdgeCoordinator.builder()
                    .database("sqlite:" + dir.resolve("d.db"))
                    .auth(auth)
                    .revokedEdges(revokedFile)
                    .start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--datagram-key");
    assertThatThrownBy(() -> RevokedList.parse("paris\n# c\nno way\n", "--revoked-edges f"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--revoked-edges f line 3: not an edge name");
    assertThat(RevokedList.parse("paris\n\n  oslo \n", "f"))
        .containsExactlyInAnyOrder("paris", "oslo");
    // bounded by the bytes read: a device reports a size of 0
    assertThatThrownBy(() -> RevokedList.load(Path.of("/dev/zero")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--revoked-edges /dev/zero: over " + RevokedList.MAX_BYTES + " B");
  }
}
