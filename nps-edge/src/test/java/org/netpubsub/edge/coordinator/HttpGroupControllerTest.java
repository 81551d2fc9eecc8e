package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client of the controller's group API reads the controller's answer as it writes it. */
class HttpGroupControllerTest {
  @Test
  void sourcesAreMatchedAsAddressesWhateverTheirTextForm() throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
    // what nps controller answers: compressed IPv6 text
    byte[] reply =
        "{\"name\":\"g\",\"sources\":{\"fd6e:7073:1::1\":{\"send_to\":\"ff1e:5e00::1:4000:0\"}}}"
            .getBytes(StandardCharsets.UTF_8);
    http.createContext(
        "/v1/groups/",
        ex -> {
          ex.getRequestBody().readAllBytes();
          ex.sendResponseHeaders(200, reply.length);
          ex.getResponseBody().write(reply);
          ex.close();
        });
    http.start();
    try {
      HttpGroupController c =
          new HttpGroupController(
              URI.create("http://127.0.0.1:" + http.getAddress().getPort()), Duration.ofSeconds(5));
      assertThat(c.put("g", List.of("fd6e:7073:1:0:0:0:0:2"), List.of("fd6e:7073:1:0:0:0:0:1")))
          .containsEntry("fd6e:7073:1:0:0:0:0:1", "ff1e:5e00::1:4000:0");
    } finally {
      http.stop(0);
    }
    assertThat(HttpGroupController.canonical("fd6e:7073:1::1"))
        .isEqualTo(HttpGroupController.canonical("fd6e:7073:1:0:0:0:0:1"));
    assertThat(HttpGroupController.canonical("edge-name")).isEqualTo("edge-name");
  }

  @Test
  void anIpv6LiteralIsCanonicalInRfc5952FormAsTheControllerWritesIt() {
    assertThat(HttpGroupController.canonical("2001:db8:0:0:0:0:0:1")).isEqualTo("2001:db8::1");
    assertThat(HttpGroupController.canonical("2001:DB8::0:1")).isEqualTo("2001:db8::1");
    assertThat(HttpGroupController.canonical("10.0.0.1")).isEqualTo("10.0.0.1");
  }
}
