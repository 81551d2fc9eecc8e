package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 27's slow-connection attack: 16 connections that each send one byte of a request. */
class ConnectionLimitsTest {
  private final PrometheusMeterRegistry metrics = HttpMetrics.newRegistry();
  private RestServer server;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server =
        RestServer.builder("test", metrics)
            .idleTimeout(Duration.ofMillis(500))
            .maxConnectionsPerSource(20)
            .route("GET", "/v1/ping", r -> Reply.ok(Json.MAPPER.createObjectNode().put("ok", 1)))
            .start();
  }

  @AfterEach
  void stop() throws Exception {
    for (Socket s : sockets) {
      s.close();
    }
    server.close();
  }

  private Socket slow() throws Exception {
    Socket s = new Socket("127.0.0.1", server.address().getPort());
    sockets.add(s);
    OutputStream out = s.getOutputStream();
    out.write('G');
    out.flush();
    return s;
  }

  private static boolean closedByServer(Socket s) throws Exception {
    s.setSoTimeout(10_000);
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // a 408/400 answer may come before the end of the stream
      }
      return true;
    } catch (java.net.SocketException reset) {
      return true;
    }
  }

  @Test
  void slowConnectionsNeitherHangTheServerNorStayOpen() throws Exception {
    List<Socket> slow = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      slow.add(slow());
    }
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.address().getPort() + "/v1/ping"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    for (Socket s : slow) {
      assertThat(closedByServer(s)).isTrue(); // by the idle timeout, not held forever
    }
  }

  @Test
  void connectionsOverThePerSourceBoundAreClosed() throws Exception {
    for (int i = 0; i < 20; i++) {
      slow();
    }
    Socket extra = new Socket("127.0.0.1", server.address().getPort());
    sockets.add(extra);
    assertThat(closedByServer(extra)).isTrue();
    assertThat(metrics.get("nps.http.connections.refused").counter().count()).isEqualTo(1);
  }
}
