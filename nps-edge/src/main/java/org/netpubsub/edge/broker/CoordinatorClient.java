package org.netpubsub.edge.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The agent's side of the coordinator's REST API (docs/edge.md) over {@code java.net.http}. Every
 * failure is a {@link CoordinatorException} with the status (0: unreachable) and the reason.
 */
final class CoordinatorClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The largest answer taken: an own-keys answer for {@link AgentKeys#MAX_SENDERS} senders of 64 B
   * names and four keys each is about 1.4 MB.
   */
  static final int MAX_ANSWER = 8 << 20;

  record Registration(long version, String mode, List<String> filters) {}

  /** {@code exchanges}: the exchanges this edge mirrors changed (AMQP edges). */
  record Changes(long version, boolean flush, List<String> topics, boolean exchanges) {}

  /** A refusal or an unreachable coordinator. */
  static final class CoordinatorException extends Exception {
    final int status;

    CoordinatorException(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  private final URI base;
  private final HttpClient http;
  private final Duration timeout;
  private final String token; // the agent's bearer token at the coordinator, or null

  CoordinatorClient(URI base, Duration timeout) {
    this(base, timeout, null, null);
  }

  /** {@code tls}: for an https URL, the context trusting the coordinator's CA (null: the JDK's). */
  CoordinatorClient(URI base, Duration timeout, String token, SSLContext tls) {
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

  Registration register(String edge, InetSocketAddress at) throws CoordinatorException {
    JsonNode r = send("PUT", "/v1/edges/" + enc(edge), registration(at), timeout);
    List<String> filters = new ArrayList<>();
    r.path("filters").forEach(f -> filters.add(f.asText()));
    return new Registration(r.path("version").asLong(), r.path("mode").asText(), filters);
  }

  /**
   * The body of {@code PUT /v1/edges/{name}}: IPv6 in RFC 5952 form, as everything the project
   * writes ({@link Ipv6Address}); the coordinator also accepts (and may hold) the JDK's longer form
   * from older agents.
   */
  static ObjectNode registration(InetSocketAddress at) {
    ObjectNode body = JSON.createObjectNode();
    body.put("address", Ipv6Address.formatWithZone(at.getAddress())).put("port", at.getPort());
    return body;
  }

  void leave(String edge) throws CoordinatorException {
    send("DELETE", "/v1/edges/" + enc(edge), null, timeout);
  }

  /** Reports filter changes; answers once the coordinator has them in every route it gives. */
  void reportFilters(String edge, Collection<String> added, Collection<String> removed)
      throws CoordinatorException {
    ObjectNode body = JSON.createObjectNode();
    added.forEach(body.putArray("added")::add);
    removed.forEach(body.putArray("removed")::add);
    // the answer waits for other agents' acknowledgements: allow for it
    send("POST", "/v1/edges/" + enc(edge) + "/filters", body, timeout.multipliedBy(3));
  }

  /** An exchange as the coordinator lists it: declared by clients at {@code edges}. */
  record Exchange(String name, String type, boolean durable, List<String> edges) {}

  /** Reports exchanges declared and deleted by local clients; answers once others mirror them. */
  void reportExchanges(String edge, Collection<Exchange> created, Collection<String> deleted)
      throws CoordinatorException {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode c = body.putArray("created");
    for (Exchange x : created) {
      c.addObject().put("name", x.name()).put("type", x.type()).put("durable", x.durable());
    }
    deleted.forEach(body.putArray("deleted")::add);
    send("POST", "/v1/edges/" + enc(edge) + "/exchanges", body, timeout.multipliedBy(3));
  }

  /** Every exchange some edge's clients declared. */
  List<Exchange> exchanges() throws CoordinatorException {
    List<Exchange> out = new ArrayList<>();
    for (JsonNode x : send("GET", "/v1/exchanges", null, timeout).path("exchanges")) {
      List<String> edges = new ArrayList<>();
      x.path("edges").forEach(e -> edges.add(e.asText()));
      out.add(
          new Exchange(
              x.path("name").asText(),
              x.path("type").asText(),
              x.path("durable").asBoolean(),
              edges));
    }
    return out;
  }

  /** A registered edge and where its agent receives datagrams. */
  record Peer(String name, InetSocketAddress address) {}

  /** Every registered edge ({@code GET /v1/edges}), in the coordinator's order. */
  List<Peer> edges() throws CoordinatorException {
    List<Peer> out = new ArrayList<>();
    for (JsonNode e : send("GET", "/v1/edges", null, timeout).path("edges")) {
      out.add(
          new Peer(
              e.path("name").asText(),
              new InetSocketAddress(e.path("address").asText(), e.path("port").asInt())));
    }
    return out;
  }

  Route route(String topic, String origin, boolean retain) throws CoordinatorException {
    JsonNode r =
        send(
            "GET",
            "/v1/routes?topic=" + enc(topic) + "&origin=" + enc(origin) + "&retain=" + retain,
            null,
            timeout);
    List<InetSocketAddress> targets = new ArrayList<>();
    for (JsonNode t : r.path("targets")) {
      targets.add(new InetSocketAddress(t.path("address").asText(), t.path("port").asInt()));
    }
    return new Route(targets, r.path("version").asLong());
  }

  Changes changes(String edge, long after, Duration wait) throws CoordinatorException {
    JsonNode r =
        send(
            "GET",
            "/v1/edges/" + enc(edge) + "/changes?after=" + after + "&wait_ms=" + wait.toMillis(),
            null,
            wait.plus(timeout));
    List<String> topics = new ArrayList<>();
    r.path("topics").forEach(t -> topics.add(t.asText()));
    return new Changes(
        r.path("version").asLong(),
        r.path("flush").asBoolean(),
        topics,
        r.path("exchanges").asBoolean());
  }

  /**
   * The datagram keys the coordinator hands to {@code edge}, the signing one first, and the edges
   * it revoked (none from a coordinator older than the field). A malformed answer, or one naming
   * more than {@link AgentKeys#MAX_SENDERS} revoked edges, is refused whole without quoting it: it
   * holds keys.
   */
  KeyPoller.Served keys(String edge) throws CoordinatorException {
    JsonNode r = send("GET", "/v1/edges/" + enc(edge) + "/keys", null, timeout);
    JsonNode a = r.path("keys");
    List<byte[]> out = new ArrayList<>();
    for (JsonNode k : a) {
      try {
        out.add(HexFormat.of().parseHex(k.asText()));
      } catch (IllegalArgumentException e) {
        out.clear();
        break;
      }
    }
    if (out.isEmpty() || out.size() != a.size()) {
      throw new CoordinatorException(
          200, "coordinator answered no datagram keys, or malformed ones");
    }
    try {
      return new KeyPoller.Served(out, revoked(r));
    } catch (IllegalArgumentException e) {
      throw new CoordinatorException(
          200, "coordinator answered malformed revoked edges (" + e.getMessage() + ")");
    }
  }

  /** An answer's {@code revoked}: absent is none; over the bound, or a non-name, is refused. */
  private static java.util.Set<String> revoked(JsonNode r) {
    JsonNode v = r.path("revoked");
    if (v.isMissingNode()) {
      return java.util.Set.of();
    }
    if (!v.isArray() || v.size() > AgentKeys.MAX_SENDERS) {
      throw new IllegalArgumentException("revoked");
    }
    java.util.Set<String> revoked = new java.util.HashSet<>();
    v.forEach(n -> revoked.add(name(n)));
    return revoked;
  }

  /**
   * Edge {@code edge}'s own keys, its senders' and the revoked edges ({@code GET
   * /v1/edges/{name}/keys?own=true}). A malformed answer (a key that is not hex, a name that is no
   * edge name, more than {@link AgentKeys#MAX_SENDERS} senders) is refused without quoting it.
   */
  OwnKeyPoller.Served ownKeys(String edge) throws CoordinatorException {
    JsonNode r = send("GET", "/v1/edges/" + enc(edge) + "/keys?own=true", null, timeout);
    try {
      java.util.Map<String, List<byte[]>> senders = new java.util.HashMap<>();
      JsonNode s = r.path("senders");
      if (!s.isArray() || s.size() > AgentKeys.MAX_SENDERS) {
        throw new IllegalArgumentException("senders");
      }
      for (JsonNode n : s) {
        senders.put(name(n.path("edge")), hexKeys(n.path("keys")));
      }
      if (!r.path("revoked").isArray()) {
        throw new IllegalArgumentException("revoked"); // this answer always carried it
      }
      return new OwnKeyPoller.Served(hexKeys(r.path("keys")), senders, revoked(r));
    } catch (IllegalArgumentException e) {
      throw new CoordinatorException(
          200, "coordinator answered malformed own keys (" + e.getMessage() + ")");
    }
  }

  private static String name(JsonNode n) {
    if (!n.isTextual() || !DatagramCodec.EDGE_NAME.matcher(n.asText()).matches()) {
      throw new IllegalArgumentException("an edge name");
    }
    return n.asText();
  }

  private static List<byte[]> hexKeys(JsonNode a) {
    if (!a.isArray() || a.isEmpty() || a.size() > 64) {
      throw new IllegalArgumentException("a key list");
    }
    List<byte[]> out = new ArrayList<>();
    for (JsonNode k : a) {
      if (!k.isTextual() || k.asText().length() != 64) {
        throw new IllegalArgumentException("a key");
      }
      try {
        out.add(HexFormat.of().parseHex(k.asText()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("a key"); // HexFormat's message quotes the text
      }
    }
    return out;
  }

  private JsonNode send(String method, String path, JsonNode body, Duration limit)
      throws CoordinatorException {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(limit);
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body == null) {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
    }
    HttpResponse<java.io.InputStream> r;
    String text;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
      text = bounded(r.body());
    } catch (IOException e) {
      throw new CoordinatorException(0, "coordinator unreachable at " + base + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinatorException(0, "interrupted");
    }
    JsonNode reply;
    try {
      reply = JSON.readTree(text);
    } catch (IOException e) {
      throw new CoordinatorException(r.statusCode(), "coordinator answered non-JSON");
    }
    if (r.statusCode() != 200) {
      throw new CoordinatorException(
          r.statusCode(),
          "coordinator: "
              + method
              + " "
              + path
              + " → "
              + r.statusCode()
              + ": "
              + reply.path("error").path("message").asText(""));
    }
    return reply;
  }

  /**
   * An answer's body, refused past {@link #MAX_ANSWER} bytes (a coordinator, or whatever answers at
   * its address, cannot make an agent hold more); read on the calling thread.
   */
  private static String bounded(java.io.InputStream body) throws IOException {
    try (body) {
      byte[] b = body.readNBytes(MAX_ANSWER + 1);
      if (b.length > MAX_ANSWER) {
        throw new IOException("answer over " + MAX_ANSWER + " B");
      }
      return new String(b, StandardCharsets.UTF_8);
    }
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
