package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.multicast.MulticastGroups;

/** The OpenAPI document served at /v1/openapi.json lists exactly the routes the server has. */
class OpenApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theDocumentListsEveryRouteAndNoOther() throws Exception {
    try (NetworkController controller =
            NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0));
        ControllerApi api =
            ControllerApi.start(
                controller,
                Optional.empty(),
                Optional.of(MulticastGroups.attach(controller)),
                new InetSocketAddress("127.0.0.1", 0))) {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:" + api.address().getPort() + "/v1/openapi.json"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      JsonNode doc = JSON.readTree(r.body());
      assertThat(doc.get("openapi").asText()).startsWith("3.");
      TreeSet<String> documented = new TreeSet<>();
      for (Iterator<Map.Entry<String, JsonNode>> p = doc.get("paths").fields(); p.hasNext(); ) {
        Map.Entry<String, JsonNode> path = p.next();
        path.getValue()
            .fieldNames()
            .forEachRemaining(m -> documented.add(m.toUpperCase() + " " + path.getKey()));
      }
      assertThat(documented).isEqualTo(new TreeSet<>(api.routes()));
      assertThat(documented).contains("GET /v1/topology", "DELETE /v1/subscriptions/{id}");
    }
  }
}
