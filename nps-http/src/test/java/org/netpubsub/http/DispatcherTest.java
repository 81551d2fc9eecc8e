package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the Jetty core dispatch adds beyond RestServerTest: decoding, Jetty's own errors. */
class DispatcherTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private RestServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        RestServer.builder("test", HttpMetrics.newRegistry())
            .route(
                "GET",
                "/v1/things/{name}",
                r ->
                    Reply.ok(
                        Json.MAPPER
                            .createObjectNode()
                            .put("name", r.pathParam("name"))
                            .put("q", r.query("q"))))
            .start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void parametersAreDecodedAndATrailingSlashIgnored() throws Exception {
    HttpResponse<String> r = send("GET", "/v1/things/a%20b/?q=x%2Fy");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(r.body()).get("name").asText()).isEqualTo("a b");
    assertThat(Json.MAPPER.readTree(r.body()).get("q").asText()).isEqualTo("x/y");
    HttpResponse<String> slashes = send("GET", "/v1/things/a%2Fb");
    assertThat(slashes.statusCode()).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(slashes.body()).get("name").asText()).isEqualTo("a/b");
    HttpResponse<String> twice = send("GET", "/v1/things/a?q=1&q=2");
    assertThat(twice.statusCode()).isEqualTo(400);
    assertThat(Json.MAPPER.readTree(twice.body()).at("/error/field").asText()).isEqualTo("q");
  }

  @Test
  void metricsTakesGetOnly() throws Exception {
    HttpResponse<String> r = send("POST", "/metrics");
    assertThat(r.statusCode()).isEqualTo(405);
    assertThat(r.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void aRequestJettyRefusesIsAJsonErrorToo() throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("GET /v1/things/a HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(20_000) + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      s.setSoTimeout(10_000);
      InputStream in = s.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 431").contains("application/json");
      assertThat(answer).contains("\"error\":{\"code\":\"client_error\"");
    }
  }
}
