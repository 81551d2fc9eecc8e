package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.http.ApiError;

/** The REST API over real HTTP on a free port, against a controller with one simulated switch. */
class ControllerApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private NetworkController controller;
  private ControllerApi api;
  private SimulatedOpenFlowSwitch sw;

  @BeforeEach
  void start() throws Exception {
    controller = NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0));
    api = ControllerApi.start(controller, new InetSocketAddress("127.0.0.1", 0));
    sw = SimulatedOpenFlowSwitch.builder().dpid(0x2a).ports(1, 2).build();
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    Wait.until(
        "the switch",
        Duration.ofSeconds(10),
        () -> {},
        () -> controller.topology().hasSwitch(0x2a));
  }

  @AfterEach
  void stop() {
    sw.close();
    api.close();
    controller.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + api.address().getPort() + path);
  }

  @Test
  void topologyListsTheSwitchAndARegisteredHost() throws Exception {
    HttpResponse<String> r =
        post(
            "/v1/hosts",
            "{\"address\":\"fd6e:7073:1::7\",\"mac\":\"02:00:00:00:00:07\","
                + "\"dpid\":\"000000000000002a\",\"port\":2}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode t = JSON.readTree(get("/v1/topology").body());
    assertThat(t.at("/switches/0/dpid").asText()).isEqualTo("000000000000002a");
    assertThat(t.at("/switches/0/ports").toString()).isEqualTo("[1,2]");
    assertThat(t.get("links")).isEmpty();
    assertThat(t.at("/hosts/0/address").asText()).isEqualTo("fd6e:7073:1::7");
    assertThat(t.at("/hosts/0/mac").asText()).isEqualTo("02:00:00:00:00:07");
    assertThat(t.at("/hosts/0/port").asLong()).isEqualTo(2);

    JsonNode flows = JSON.readTree(get("/v1/switches/000000000000002a/flows").body());
    assertThat(flows.get("flows").toString()).contains("ipv6_dst=fd6e:7073:1::7", "output:2");
    Wait.until(
        "the switch holds the host's flow",
        Duration.ofSeconds(10),
        () -> {},
        () -> {
          try {
            return get("/v1/switches/2a/flows?source=switch")
                .body()
                .contains("ipv6_dst=fd6e:7073:1::7");
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        });
  }

  @Test
  void rootIsTheDashboardBesideTheApi() throws Exception {
    HttpResponse<String> page = get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    assertThat(page.body()).contains("<script src=\"app.js\">", "href=\"app.css\"");
    HttpResponse<String> script = get("/app.js");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("Content-Type").orElse(""))
        .startsWith("text/javascript");
    assertThat(script.body()).contains("/v1/topology", "/metrics", "fetchOptions()");
    // the token (a controller with --auth) comes from the URL fragment, kept in sessionStorage
    assertThat(page.body()).contains("<script src=\"token.js\">");
    assertThat(get("/token.js").body()).contains("location.hash", "sessionStorage", "Bearer");
    HttpResponse<String> panel = get("/subscriber-stats.js");
    assertThat(panel.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<script src=\"subscriber-stats.js\">");
    assertThat(panel.body()).contains("/v1/pubsub/stats", "false_positive_rate");
    HttpResponse<String> style = get("/app.css");
    assertThat(style.statusCode()).isEqualTo(200);
    assertThat(style.headers().firstValue("Content-Type").orElse("")).startsWith("text/css");
    assertThat(get("/missing.js").statusCode()).isEqualTo(404);
    assertThat(get("/dashboard/app.js").statusCode()).isEqualTo(404);
    assertThat(post("/", "{}").statusCode()).isIn(404, 405);
  }

  @Test
  void badInputIsAJsonErrorWithAReason() throws Exception {
    assertError(post("/v1/hosts", "{\"address\":\"nope\"}"), 400, "");
    assertError(post("/v1/hosts", "{not json"), 400, "malformed JSON");
    assertError(post("/v1/hosts", "[]"), 400, "JSON object");
    assertError(post("/v1/hosts", "{\"address\":\"fd6e::1\"}"), 400, "give mac, dpid and port");
    assertError(
        post(
            "/v1/hosts",
            "{\"address\":\"fd6e::1\",\"mac\":\"02:00:00:00:00:01\",\"dpid\":\"99\",\"port\":1}"),
        400,
        "unknown switch");
    assertError(post("/v1/hosts", "{\"pad\":\"" + "x".repeat(70_000) + "\"}"), 413, "body");
    assertError(get("/v1/nothing"), 404, "no such resource");
    assertError(get("/v1/switches/zz/flows"), 400, "datapath id");
    assertError(get("/v1/switches/77/flows"), 404, "unknown switch");
    assertError(get("/v1/switches/77/flows?source=switch"), 404, "not connected");
    HttpResponse<String> notAllowed = get("/v1/hosts");
    assertError(notAllowed, 405, "not allowed");
    assertThat(notAllowed.headers().firstValue("Allow")).hasValue("POST");
    assertField(post("/v1/hosts", "{\"address\":\"nope\"}"), "address");
    assertField(post("/v1/hosts", "{\"address\":7}"), "address");
    assertField(get("/v1/switches/zz/flows"), "dpid");
    assertField(get("/v1/switches/2a/flows?source=elsewhere"), "source");
  }

  private static void assertField(HttpResponse<String> r, String field) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).at("/error/field").asText()).isEqualTo(field);
  }

  private static void assertError(HttpResponse<String> r, int status, String reason)
      throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode error = JSON.readTree(r.body()).get("error");
    assertThat(error.get("message").asText()).contains(reason);
    assertThat(error.get("code").asText()).isEqualTo(ApiError.codeOf(status));
  }
}
