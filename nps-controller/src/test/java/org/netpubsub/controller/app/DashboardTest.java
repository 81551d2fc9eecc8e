package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's static files at {@code /} over real HTTP, beside the API (the page itself is
 * tested in a browser: testbed/tests/test_dashboard_ovs.py).
 */
class DashboardTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private NetworkController controller;
  private ControllerApi api;

  @BeforeEach
  void start() throws Exception {
    controller = NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0));
    api = ControllerApi.start(controller, new InetSocketAddress("127.0.0.1", 0));
  }

  @AfterEach
  void stop() {
    api.close();
    controller.close();
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + api.address().getPort() + path);
    return http.send(
        HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String type(HttpResponse<?> r) {
    return r.headers().firstValue("Content-Type").orElse("");
  }

  @Test
  void rootIsThePageAndItsScriptAndStyleAreBesideIt() throws Exception {
    HttpResponse<String> page = send("GET", "/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(type(page)).startsWith("text/html");
    assertThat(page.body()).contains("<script src=\"app.js\">", "href=\"app.css\"");

    HttpResponse<String> script = send("GET", "/app.js");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(type(script)).startsWith("text/javascript");
    assertThat(script.body()).contains("/v1/topology", "/metrics");

    HttpResponse<String> style = send("GET", "/app.css");
    assertThat(style.statusCode()).isEqualTo(200);
    assertThat(type(style)).startsWith("text/css");
  }

  @Test
  void everythingElseIsStillTheApi() throws Exception {
    HttpResponse<String> topology = send("GET", "/v1/topology");
    assertThat(topology.statusCode()).isEqualTo(200);
    assertThat(topology.body()).contains("\"switches\"");
    assertThat(send("GET", "/missing.js").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/dashboard/app.js").statusCode()).isEqualTo(404);
    assertThat(send("POST", "/").statusCode()).isIn(404, 405);
  }
}
