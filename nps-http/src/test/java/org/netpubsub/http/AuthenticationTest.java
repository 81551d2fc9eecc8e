package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthenticationTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final PrometheusMeterRegistry metrics = HttpMetrics.newRegistry();
  @TempDir Path dir;
  private RestServer server;
  private Authenticator auth;

  static String principal(String name, String token, String extra) {
    return "  - name: " + name + "\n    token_sha256: " + Tokens.sha256(token) + "\n" + extra;
  }

  private void start(String yaml, Duration poll) throws Exception {
    Path f = dir.resolve("principals.yaml");
    Files.writeString(f, yaml);
    auth = Authenticator.load(f, region -> {}, poll);
    server =
        RestServer.builder("test", metrics)
            .auth(auth)
            .route(
                "GET",
                "/v1/things/{host}",
                r -> {
                  Principal p = r.principal();
                  if (!p.mayActFor(r.pathParam("host"))) {
                    throw p.forbidden("act for " + r.pathParam("host"));
                  }
                  return Reply.ok(Json.MAPPER.createObjectNode().put("name", p.name()));
                })
            .start();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (auth != null) {
      auth.close();
    }
  }

  private HttpResponse<String> get(String path, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
            URI.create(
                "http://127.0.0.1:" + server.address().getPort() + path.replace(":", "%3A")));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private double counter(String reason) {
    return metrics.get("nps.http.auth.refused").tag("reason", reason).counter().count();
  }

  @Test
  void tokensAreCheckedAndRefusalsCounted() throws Exception {
    start(
        "principals:\n" + principal("alice", "tok-a", "    hosts: ['fd00:1::/64']\n"),
        Duration.ZERO);
    HttpResponse<String> none = get("/v1/things/fd00:1::5", null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    assertThat(none.body()).contains("\"code\":\"unauthorized\"");
    HttpResponse<String> bad = get("/v1/things/fd00:1::5", "tok-b");
    assertThat(bad.statusCode()).isEqualTo(401);
    assertThat(bad.headers().firstValue("WWW-Authenticate").orElseThrow())
        .contains("invalid_token");
    assertThat(get("/v1/things/fd00:1::5", "tok-a").body()).contains("\"name\":\"alice\"");
    HttpResponse<String> other = get("/v1/things/fd00:2::5", "tok-a");
    assertThat(other.statusCode()).isEqualTo(403);
    assertThat(other.body()).contains("\"code\":\"forbidden\"").contains("alice");
    assertThat(get("/metrics", null).statusCode()).isEqualTo(401);
    assertThat(get("/health/live", null).statusCode()).isEqualTo(200);
    assertThat(get("/health/ready", null).statusCode()).isEqualTo(200);
    assertThat(counter("missing")).isEqualTo(2);
    assertThat(counter("invalid")).isEqualTo(1);
    assertThat(counter("forbidden")).isEqualTo(1);
    assertThat(get("/metrics", "tok-a").body()).contains("nps_http_auth_enabled 1.0");
  }

  @Test
  void aChangedFileIsReloadedAndABadOneKeepsThePrincipalsInForce() throws Exception {
    start("principals:\n" + principal("alice", "tok-a", ""), Duration.ofMillis(50));
    Path f = dir.resolve("principals.yaml");
    Files.writeString(f, "principals:\n" + principal("bob", "tok-b", ""));
    poll(() -> auth.reloads() >= 1);
    assertThat(get("/v1/things/fd00:1::5", "tok-b").statusCode()).isEqualTo(403);
    assertThat(get("/v1/things/fd00:1::5", "tok-a").statusCode()).isEqualTo(401);
    Files.writeString(f, "principals:\n  - name: x\n    token_sha256: nothex\n");
    poll(() -> auth.failedReloads() >= 1);
    assertThat(get("/v1/things/fd00:1::5", "tok-b").statusCode()).isEqualTo(403);
  }

  /**
   * A reload listener hears the principals of each reload that took effect (the controller re-cuts
   * standing requests from them), never a refused or unchanged one; one that throws keeps the
   * reload in force and the other listeners told.
   */
  @Test
  void reloadListenersHearOnlyReloadsThatTookEffect() throws Exception {
    start(
        "principals:\n" + principal("alice", "tok-a", "    subscribe: 'price < 10'\n"),
        Duration.ZERO);
    java.util.List<Principals> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    auth.onReload(
        p -> {
          throw new IllegalStateException("a failing listener");
        });
    auth.onReload(heard::add);
    Path f = dir.resolve("principals.yaml");
    assertThat(auth.reload()).isTrue(); // unchanged contents: nothing to tell
    assertThat(heard).isEmpty();

    AtomicFiles.replace(f, "principals:\n  - name: x\n    token_sha256: nothex\n");
    assertThat(auth.reload()).isFalse(); // refused: the principals in force stay, nobody is told
    assertThat(heard).isEmpty();

    AtomicFiles.replace(
        f, "principals:\n" + principal("alice", "tok-a", "    subscribe: 'price < 5'\n"));
    assertThat(auth.reload()).isTrue();
    assertThat(heard).hasSize(1);
    assertThat(heard.get(0).byName("alice").orElseThrow().subscribe()).hasValue("price < 5");
    assertThat(heard.get(0).byName("bob")).isEmpty();
    assertThat(auth.principals()).isSameAs(heard.get(0));
    assertThat(get("/v1/things/fd00:1::5", "tok-a").statusCode()).isEqualTo(403); // in force

    AtomicFiles.replace(f, "principals:\n" + principal("bob", "tok-b", ""));
    assertThat(auth.reload()).isTrue();
    assertThat(heard).hasSize(2);
    assertThat(heard.get(1).byName("alice")).isEmpty();
    assertThat(auth.reloads()).isEqualTo(2);
    assertThat(auth.failedReloads()).isEqualTo(1);
  }

  @Test
  void badFilesAreRefusedNamingThePrincipalAndField() {
    assertThatThrownBy(() -> Principals.parse("principals:\n  - name: a\n", r -> {}))
        .hasMessageContaining("a: token_sha256");
    assertThatThrownBy(
            () ->
                Principals.parse(
                    "principals:\n" + principal("a", "t", "    hosts: [nonsense]\n"), r -> {}))
        .hasMessageContaining("a: hosts");
    assertThatThrownBy(
            () ->
                Principals.parse(
                    "principals:\n" + principal("a", "t", "    admin: [root]\n"), r -> {}))
        .hasMessageContaining("a: admin");
    assertThatThrownBy(
            () ->
                Principals.parse(
                    "principals:\n" + principal("a", "t", "    subscribe: 'x >'\n"),
                    r -> {
                      throw new IllegalArgumentException("bad filter");
                    }))
        .hasMessageContaining("a: subscribe: bad filter");
    assertThatThrownBy(
            () ->
                Principals.parse(
                    "principals:\n" + principal("a", "t", "") + principal("b", "t", ""), r -> {}))
        .hasMessageContaining("b: token_sha256 is another principal's");
  }

  @Test
  void prefixesContainTheirAddressesOnly() {
    HostPrefix p = HostPrefix.parse("fd6e:7073:1::/48");
    assertThat(p.contains(HostPrefix.literal("fd6e:7073:1:ffff::1"))).isTrue();
    assertThat(p.contains(HostPrefix.literal("fd6e:7073:2::1"))).isFalse();
    assertThat(p.contains(HostPrefix.literal("10.0.0.1"))).isFalse();
    assertThat(HostPrefix.literal("example.org")).isNull();
    assertThat(HostPrefix.parse("fd00::1").contains(HostPrefix.literal("fd00::1"))).isTrue();
    assertThat(HostPrefix.parse("fd00::1").contains(HostPrefix.literal("fd00::2"))).isFalse();
    assertThatThrownBy(() -> HostPrefix.parse("fd00::/129")).hasMessageContaining("prefix length");
  }

  static void poll(BooleanSupplier cond) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("condition not met within 10 s");
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }
}
