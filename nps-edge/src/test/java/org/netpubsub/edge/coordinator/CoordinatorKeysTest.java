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
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Tokens;

/**
 * {@code GET /v1/edges/{name}/keys}: the datagram keys go to a principal that may act as the edge
 * only (401 without a token, 403 for another principal), never cached, never in a listing, the
 * metrics or the log; the file is read again, and a bad file keeps the keys held.
 */
class CoordinatorKeysTest {
  private static final String K1 = "11".repeat(32);
  private static final String K2 = "22".repeat(32);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<String> logged = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          synchronized (logged) {
            logged.add(String.valueOf(r.getMessage()) + " " + r.getThrown());
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final Logger netpubsub = Logger.getLogger("org.netpubsub");
  private EdgeCoordinator coordinator;
  private Authenticator auth;
  private Path keyFile;

  @BeforeEach
  void start() throws Exception {
    netpubsub.addHandler(capture);
    netpubsub.setLevel(Level.ALL);
    Path f = dir.resolve("principals.yaml");
    Files.writeString(
        f,
        "principals:\n"
            + principal("paris", "edges: [paris]")
            + principal("mallory", "edges: [rogue]")
            + principal("dashboard", "admin: [read]")
            + principal("operator", "admin: [edges]"));
    auth = Authenticator.load(f, r -> {}, Duration.ZERO);
    keyFile = dir.resolve("datagram.key");
    Files.writeString(keyFile, "# deployment key\n" + K1 + "\n" + K2 + "\n");
    coordinator =
        EdgeCoordinator.builder()
            .database("sqlite:" + dir.resolve("c.db"))
            .auth(auth)
            .datagramKeys(keyFile)
            .start();
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
    netpubsub.removeHandler(capture);
    netpubsub.setLevel(null);
    if (coordinator != null) {
      coordinator.close();
    }
    if (auth != null) {
      auth.close();
    }
  }

  private HttpResponse<String> get(String path, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + coordinator.address().getPort() + path));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<String> keys(HttpResponse<String> r) throws Exception {
    List<String> out = new ArrayList<>();
    JSON.readTree(r.body()).path("keys").forEach(k -> out.add(k.asText()));
    return out;
  }

  @Test
  void theKeysGoToThePrincipalOfTheEdgeOnlyAndAreNeverCached() throws Exception {
    HttpResponse<String> none = get("/v1/edges/paris/keys", null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(get("/v1/edges/paris/keys", "t-nobody").statusCode()).isEqualTo(401);
    HttpResponse<String> other = get("/v1/edges/paris/keys", "t-mallory");
    assertThat(other.statusCode()).isEqualTo(403);
    assertThat(other.body()).contains("act as edge 'paris'");
    assertThat(get("/v1/edges/paris/keys", "t-dashboard").statusCode()).isEqualTo(403);
    for (HttpResponse<String> refused : List.of(none, other)) {
      assertThat(refused.body()).doesNotContain(K1).doesNotContain(K2);
    }

    HttpResponse<String> own = get("/v1/edges/paris/keys", "t-paris");
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(keys(own)).containsExactly(K1, K2); // the file's order: the first signs
    assertThat(own.headers().firstValue("Cache-Control")).contains("no-store");
    assertThat(keys(get("/v1/edges/rogue/keys", "t-mallory"))).containsExactly(K1, K2);
    assertThat(get("/v1/edges/paris/keys", "t-operator").statusCode()).isEqualTo(200);

    // not in any listing, the metrics or the log
    assertThat(get("/v1/edges", "t-paris").body()).doesNotContain(K1);
    String metrics = get("/metrics", "t-paris").body();
    assertThat(metrics).doesNotContain(K1).doesNotContain(K2);
    assertThat(metrics).contains("nps_coordinator_keys_served_total 3.0");
    synchronized (logged) {
      assertThat(logged).isNotEmpty().noneMatch(l -> l.contains(K1) || l.contains(K2));
    }
  }

  @Test
  void theFileIsReadAgainAndABadFileKeepsTheKeysHeld() throws Exception {
    Files.writeString(keyFile, K2 + "\n" + K1 + "\n"); // rotation step 2: the new key signs
    assertThat(keys(get("/v1/edges/paris/keys", "t-paris"))).containsExactly(K2, K1);
    Files.writeString(keyFile, K2 + "\nnot hex\n");
    HttpResponse<String> kept = get("/v1/edges/paris/keys", "t-paris");
    assertThat(kept.statusCode()).isEqualTo(200);
    assertThat(keys(kept)).containsExactly(K2, K1);
    Files.delete(keyFile); // mid-replacement
    assertThat(keys(get("/v1/edges/paris/keys", "t-paris"))).containsExactly(K2, K1);
    assertThat(get("/metrics", "t-paris").body())
        .contains("nps_coordinator_key_file_invalid_total 2.0");
    Files.writeString(keyFile, K2 + "\n"); // step 3: the old key removed
    assertThat(keys(get("/v1/edges/paris/keys", "t-paris"))).containsExactly(K2);
    synchronized (logged) {
      assertThat(logged).anyMatch(l -> l.contains("line 2: not a hex key"));
      assertThat(logged).noneMatch(l -> l.contains(K1) || l.contains(K2));
    }
  }

  @Test
  void keysAreServedOnlyWithAuthenticationAndOnlyWhenConfigured() throws Exception {
    assertThatThrownBy(
            () ->
                EdgeCoordinator.builder()
                    .database("sqlite:" + dir.resolve("d.db"))
                    .datagramKeys(keyFile)
                    .start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--auth");
    Path shortKey = dir.resolve("short.key");
    Files.writeString(shortKey, "0011\n");
    assertThatThrownBy(
            () ->
                EdgeCoordinator.builder()
                    .database("sqlite:" + dir.resolve("e.db"))
                    .auth(auth)
                    .datagramKeys(shortKey)
                    .start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 bytes, at least 32");
    coordinator.close();
    coordinator =
        EdgeCoordinator.builder().database("sqlite:" + dir.resolve("f.db")).auth(auth).start();
    HttpResponse<String> r = get("/v1/edges/paris/keys", "t-paris");
    assertThat(r.statusCode()).isEqualTo(404);
    JsonNode e = JSON.readTree(r.body());
    assertThat(e.at("/error/message").asText()).contains("--datagram-key");
  }
}
