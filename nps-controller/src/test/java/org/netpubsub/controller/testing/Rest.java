package org.netpubsub.controller.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/** A REST client for the controller's API in tests: one request, the answer as text and JSON. */
public final class Rest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final int port;

  /** The API on {@code [::1]:port}. */
  public Rest(int port) {
    this.port = port;
  }

  public int port() {
    return port;
  }

  /** {@code method path} with {@code body} (none if null). */
  public HttpResponse<String> send(String method, String path, String body)
      throws IOException, InterruptedException {
    return send(method, path, body, Map.of());
  }

  /** The same, with request headers. */
  public HttpResponse<String> send(
      String method, String path, String body, Map<String, String> headers)
      throws IOException, InterruptedException {
    URI uri = URI.create("http://[::1]:" + port + path);
    HttpRequest.BodyPublisher p =
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body);
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).method(method, p);
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  public static JsonNode json(HttpResponse<String> r) throws IOException {
    return JSON.readTree(r.body());
  }
}
