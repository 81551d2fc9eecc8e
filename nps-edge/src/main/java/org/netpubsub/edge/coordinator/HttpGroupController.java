package org.netpubsub.edge.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.netpubsub.content.address.Ipv6Address;

/**
 * {@link GroupController} over the controller's REST API: {@code PUT /v1/groups/{name}} with {@code
 * {"members":[…],"sources":[…],"strategy":"direct"}} answered by {@code {"name":…,"sources":{SRC:
 * {"send_to":ADDR}}}}, and {@code DELETE /v1/groups/{name}}. Failures are {@link
 * IllegalStateException}s carrying the status and the controller's {@code error}.
 */
final class HttpGroupController implements GroupController {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final URI base;
  private final HttpClient http;
  private final Duration timeout;
  private final String token; // the coordinator's bearer token at the controller, or null

  HttpGroupController(URI base, Duration timeout) {
    this(base, timeout, null, null);
  }

  /** {@code tls}: for an https URL, the context trusting the controller's CA (null: the JDK's). */
  HttpGroupController(URI base, Duration timeout, String token, SSLContext tls) {
    this.base = base;
    this.timeout = timeout;
    this.token = token;
    HttpClient.Builder b =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout);
    if (tls != null) {
      b.sslContext(tls);
    }
    this.http = b.build();
  }

  @Override
  public Map<String, String> put(String name, List<String> members, List<String> sources) {
    ObjectNode body = JSON.createObjectNode();
    members.forEach(body.putArray("members")::add);
    sources.forEach(body.putArray("sources")::add);
    body.put("strategy", "direct");
    JsonNode reply =
        send(
            request(name)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build(),
            false);
    Map<String, String> sendTo = new LinkedHashMap<>();
    // the controller writes addresses its own way (fd6e::1, not fd6e:0:…:1): match them as
    // addresses
    Map<String, JsonNode> byAddress = new LinkedHashMap<>();
    reply
        .path("sources")
        .properties()
        .forEach(e -> byAddress.put(canonical(e.getKey()), e.getValue()));
    for (String src : sources) {
      JsonNode to = byAddress.getOrDefault(canonical(src), JSON.nullNode()).path("send_to");
      if (!to.isTextual()) {
        throw new IllegalStateException(
            "network controller: group " + name + " has no send_to for source " + src);
      }
      sendTo.put(src, to.asText());
    }
    return sendTo;
  }

  @Override
  public void delete(String name) {
    send(request(name).DELETE().build(), true);
  }

  /**
   * An IP literal in one text form, IPv6 in RFC 5952 form as the controller writes it ({@link
   * Ipv6Address}, the project's one formatter); never a DNS lookup: anything else stays as it is.
   */
  static String canonical(String literal) {
    if (!literal.contains(":") && !literal.matches("[0-9.]+")) {
      return literal;
    }
    try {
      InetAddress a = InetAddress.getByName(literal);
      return a instanceof Inet6Address v6 ? Ipv6Address.format(v6) : a.getHostAddress();
    } catch (UnknownHostException e) {
      return literal;
    }
  }

  private HttpRequest.Builder request(String name) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(name)).timeout(timeout);
    return token == null ? b : b.header("Authorization", "Bearer " + token);
  }

  private URI uri(String name) {
    return base.resolve("/v1/groups/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
  }

  private JsonNode send(HttpRequest req, boolean notFoundOk) {
    HttpResponse<String> r;
    try {
      r = http.send(req, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("network controller unreachable at " + base + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    if (r.statusCode() == 404 && notFoundOk) {
      return JSON.createObjectNode();
    }
    JsonNode body;
    try {
      body = r.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(r.body());
    } catch (IOException e) {
      throw new IllegalStateException(
          "network controller: " + req.method() + " " + req.uri() + " answered non-JSON", e);
    }
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(
          "network controller: "
              + req.method()
              + " "
              + req.uri()
              + " → "
              + r.statusCode()
              + ": "
              + body.path("error").path("message").asText(r.body()));
    }
    return body;
  }
}
