package org.netpubsub.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Inet6Address;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The controller's pub/sub REST API (docs/pubsub.md) over {@code java.net.http}. Retries what a
 * retry can fix: 429 after its {@code Retry-After} (bounded), and 409 "host not known" by
 * announcing the host ({@link HostAnnouncer}) and trying again for a few seconds. Everything else
 * becomes a {@link ControllerException} with the status and the controller's reason. Thread-safe.
 */
public final class ControllerClient implements Closeable {
  private static final System.Logger LOG = System.getLogger(ControllerClient.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The index version a request is made with, and the current one in a 409 "stale index". */
  public static final String VERSION_HEADER = "Nps-Index-Version";

  private final URI base;
  private final HttpClient http;
  private final HostAnnouncer announcer;
  private final Duration requestTimeout;
  private final Duration hostUnknownWindow;
  private final RetryPolicy retry;
  private final String token;
  // the index version of the last GET /v1/pubsub (0: none yet), sent with every request
  private final AtomicLong indexVersion = new AtomicLong();
  private final List<Consumer<PubSubConfig>> indexListeners = new CopyOnWriteArrayList<>();

  private ControllerClient(Builder b) {
    this.base = b.base;
    this.token = b.token;
    this.announcer = b.announcer;
    this.requestTimeout = b.requestTimeout;
    this.hostUnknownWindow = b.hostUnknownWindow;
    this.retry = new RetryPolicy(b.maxRateLimitRetries, b.maxRetryAfter);
    HttpClient.Builder hb =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(b.connectTimeout);
    if (b.tls != null) {
      hb.sslContext(b.tls);
    }
    this.http = hb.build();
  }

  /** A client with the defaults; {@code url} is {@code http://HOST:PORT} (IPv6 in brackets). */
  public static ControllerClient of(String url) {
    return builder(url).build();
  }

  public static Builder builder(String url) {
    return new Builder(parseUrl(url));
  }

  /** The base URL, checked: http or https, a host, no path beyond "/". */
  static URI parseUrl(String url) {
    String usage =
        "the controller URL must be http://HOST:PORT or https://HOST:PORT, e.g. http://[fd6e:7073:ffff::c0]:8080, not '"
            + url
            + "'";
    URI u;
    try {
      u = URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(usage);
    }
    if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme()))
        || u.getHost() == null
        || (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/"))) {
      throw new IllegalArgumentException(usage);
    }
    return URI.create(u.getScheme() + "://" + u.getRawAuthority());
  }

  public URI base() {
    return base;
  }

  /**
   * {@code GET /v1/pubsub}: the schema and index, to compute content addresses. Its version is sent
   * with every later request; when it differs from the last one fetched, the {@link #onIndexChange}
   * listeners get the new configuration.
   */
  public PubSubConfig pubsubConfig() {
    JsonNode n = call("GET", "/v1/pubsub", null, null);
    String request = "GET /v1/pubsub";
    JsonNode index = required(n, "index", request);
    List<String> dimensions = new ArrayList<>();
    for (JsonNode d : required(index, "dimensions", request)) {
      dimensions.add(d.asText());
    }
    PubSubConfig config = parseConfig(n, index, dimensions, request);
    long version = index.path("version").asLong(0);
    long before = indexVersion.getAndSet(version);
    if (before != 0 && before != version) {
      LOG.log(Level.INFO, "index version {0} replaces {1}", version, before);
      indexListeners.forEach(l -> l.accept(config));
    }
    return config;
  }

  /** The index version of the last {@link #pubsubConfig} (0 before the first). */
  public long indexVersion() {
    return indexVersion.get();
  }

  /**
   * Calls {@code listener} with the new configuration whenever a fetch finds a new index version (a
   * layout switch): after a 409 "stale index", or a poll ({@link #pubsubConfig}). Returns what
   * unregisters it.
   */
  public Runnable onIndexChange(Consumer<PubSubConfig> listener) {
    Objects.requireNonNull(listener, "listener");
    indexListeners.add(listener);
    return () -> indexListeners.remove(listener);
  }

  /** 8 hex digits as the controller and CLI print it; a number from controllers before that. */
  private static long schemaId(JsonNode n) {
    if (!n.isTextual()) {
      return n.asLong();
    }
    try {
      return Long.parseLong(n.asText(), 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("schema_id is not hex: " + n.asText());
    }
  }

  private static PubSubConfig parseConfig(
      JsonNode n, JsonNode index, List<String> dimensions, String request) {
    try {
      PubSubConfig c =
          PubSubConfig.of(
              required(n, "schema", request).asText(),
              schemaId(required(n, "schema_id", request)),
              required(index, "length", request).asInt(),
              dimensions,
              n.path("event_port").asInt(PubSubConfig.DEFAULT_EVENT_PORT),
              n.path("routing").asText(PubSubConfig.PLEROMA));
      return n.hasNonNull("local_switch")
          ? c.withLocalSwitch(LocalAttachment.parseSwitch(n.get("local_switch").asText()))
          : c;
    } catch (IllegalArgumentException e) {
      throw new ControllerException(request, 200, "unusable answer: " + e.getMessage());
    }
  }

  /** {@code POST /v1/advertisements}: the publisher on {@code host} will send within filter. */
  public Registration advertise(Inet6Address host, String filter) {
    ObjectNode body = JSON.createObjectNode();
    body.put("host", Ipv6Address.format(host)).put("filter", filter);
    return registration(
        call("POST", "/v1/advertisements", body, host), -1, "POST /v1/advertisements");
  }

  /** {@code POST /v1/subscriptions}: deliver events matching filter to {@code host}:port. */
  public Registration subscribe(Inet6Address host, String filter, int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is not a UDP port");
    }
    ObjectNode body = JSON.createObjectNode();
    body.put("host", Ipv6Address.format(host)).put("filter", filter).put("port", port);
    return registration(
        call("POST", "/v1/subscriptions", body, host), port, "POST /v1/subscriptions");
  }

  /**
   * {@code PUT /v1/pubsub/layout} (an administrator's call): switches the controller's index online
   * to the schema's index and layout; answers when the old flows are gone.
   *
   * @param length the dz length, or null for the schema's default
   * @param graceMillis how long the old flows stay after the new index is announced, or null
   */
  public LayoutSwitch switchLayout(String schemaYaml, Integer length, Long graceMillis) {
    ObjectNode body = JSON.createObjectNode().put("schema", schemaYaml);
    if (length != null) {
      body.put("length", length);
    }
    if (graceMillis != null) {
      body.put("grace_ms", graceMillis);
    }
    JsonNode n = call("PUT", "/v1/pubsub/layout", body, null);
    return new LayoutSwitch(
        required(n, "version", "PUT /v1/pubsub/layout").asLong(),
        n.path("requests").asInt(),
        n.path("flows_installed").asInt(),
        n.path("flows_removed").asInt(),
        n.path("install_ms").asDouble(),
        n.path("total_ms").asDouble());
  }

  /**
   * {@code POST /v1/subscriptions/{id}/stats}: what the subscriber received and dropped as false
   * positives since it subscribed (cumulative counters; the controller keeps the last).
   */
  public void reportStats(String id, long received, long falsePositives) {
    Objects.requireNonNull(id, "id");
    ObjectNode body =
        JSON.createObjectNode().put("received", received).put("false_positives", falsePositives);
    call(
        "POST",
        "/v1/subscriptions/" + URLEncoder.encode(id, StandardCharsets.UTF_8) + "/stats",
        body,
        null);
  }

  /** {@code DELETE /v1/advertisements/{id}}. */
  public Removal unadvertise(String id) {
    return removal(id, "/v1/advertisements/");
  }

  /** {@code DELETE /v1/subscriptions/{id}}. */
  public Removal unsubscribe(String id) {
    return removal(id, "/v1/subscriptions/");
  }

  private Removal removal(String id, String prefix) {
    Objects.requireNonNull(id, "id");
    String path = prefix + URLEncoder.encode(id, StandardCharsets.UTF_8);
    JsonNode n = call("DELETE", path, null, null);
    return new Removal(
        n.path("id").asText(id),
        n.path("flow_changes").asInt(),
        n.path("switches").asInt(),
        n.path("response_ms").asDouble());
  }

  private static Registration registration(JsonNode n, int port, String request) {
    return new Registration(
        required(n, "id", request).asText(),
        n.path("host").asText(""),
        n.path("filter").asText(""),
        n.path("port").asInt(port),
        n.path("cells").asInt(),
        n.path("flow_changes").asInt(),
        n.path("switches").asInt(),
        n.path("response_ms").asDouble());
  }

  private static JsonNode required(JsonNode n, String field, String request) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw new ControllerException(request, 200, "the answer has no '" + field + "'");
    }
    return v;
  }

  /**
   * One request with the retries: 429 per {@link RetryPolicy}; 409 with {@value #VERSION_HEADER}
   * (this client's index is stale) refetches the index and retries once; 409 (host not known, only
   * for requests naming a host) announces the host and retries until {@code hostUnknownWindow},
   * counted from the first 409, is spent.
   */
  private JsonNode call(String method, String path, JsonNode body, Inet6Address host) {
    String request = method + " " + path;
    long announceDeadline = 0; // set at the first 409: the window counts from there
    long backoffMs = 50;
    int rateLimited = 0;
    boolean refetched = false;
    while (true) {
      HttpResponse<String> r = send(method, path, body, request);
      int status = r.statusCode();
      if (status >= 200 && status < 300) {
        return parse(r.body(), request, status);
      }
      String reason = reason(r);
      if (status == 409 && r.headers().firstValue(VERSION_HEADER).isPresent()) {
        if (refetched) { // stale again: not a host to announce
          throw new ControllerException(request, status, reason);
        }
        LOG.log(Level.INFO, "{0}: {1}; refetching the index", request, reason);
        refetched = true;
        pubsubConfig();
        continue;
      }
      if (status == 429) {
        Duration wait = retry.afterRateLimit(rateLimited++, r.headers().firstValue("Retry-After"));
        if (wait == null) {
          throw new ControllerException(request, status, reason);
        }
        LOG.log(Level.DEBUG, "{0}: rate limited, retrying in {1}", request, wait);
        pause(wait.toMillis(), request);
        continue;
      }
      if (status == 409 && host != null && announceDeadline == 0) {
        announceDeadline = System.nanoTime() + hostUnknownWindow.toNanos();
      }
      if (status == 409 && host != null && System.nanoTime() - announceDeadline < 0) {
        LOG.log(Level.DEBUG, "{0}: {1}; announcing {2}", request, reason, host);
        announcer.announce(host);
        long left = (announceDeadline - System.nanoTime()) / 1_000_000;
        pause(Math.max(1, Math.min(backoffMs, left)), request);
        backoffMs = Math.min(backoffMs * 2, 500);
        continue;
      }
      throw new ControllerException(request, status, reason);
    }
  }

  private HttpResponse<String> send(String method, String path, JsonNode body, String request) {
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(requestTimeout)
            .header("Accept", "application/json");
    if (token != null) {
      rb.header("Authorization", "Bearer " + token);
    }
    long version = indexVersion.get();
    if (version != 0) {
      rb.header(VERSION_HEADER, Long.toString(version));
    }
    if (body == null) {
      rb.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      rb.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
    }
    try {
      return http.send(rb.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new ControllerException(
          request, ControllerException.UNREACHABLE, base + ": " + describe(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ControllerException(request, ControllerException.UNREACHABLE, "interrupted");
    }
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  private static void pause(long millis, String request) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ControllerException(request, ControllerException.UNREACHABLE, "interrupted");
    }
  }

  private static JsonNode parse(String body, String request, int status) {
    try {
      JsonNode n = JSON.readTree(body);
      if (n == null || !n.isObject()) {
        throw new ControllerException(request, status, "the answer is not a JSON object");
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new ControllerException(request, status, "malformed JSON answer: " + e.getMessage());
    }
  }

  /**
   * The {@code error.message} of a JSON error body ({@code {"error":{"code","message","field"?}}},
   * with the field when it names one), else the body itself (cut short), else the status.
   */
  static String reason(HttpResponse<String> r) {
    String body = r.body() == null ? "" : r.body().strip();
    try {
      JsonNode n = JSON.readTree(body);
      JsonNode e = n == null ? null : n.get("error");
      if (e != null && e.hasNonNull("message")) {
        return e.get("message").asText()
            + (e.hasNonNull("field") ? " (field " + e.get("field").asText() + ")" : "");
      }
    } catch (JsonProcessingException e) {
      // not JSON: use the text
    }
    if (body.isEmpty()) {
      return "no reason given";
    }
    return body.length() <= 500 ? body : body.substring(0, 497) + "...";
  }

  @Override
  public void close() {
    http.shutdownNow();
  }

  /** Options of a {@link ControllerClient}; defaults suit the test bed. */
  public static final class Builder {
    private final URI base;
    private HostAnnouncer announcer = new NeighbourDiscoveryAnnouncer();
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration hostUnknownWindow = Duration.ofSeconds(5);
    private int maxRateLimitRetries = 10;
    private Duration maxRetryAfter = Duration.ofSeconds(2);
    private String token;
    private SSLContext tls;

    private Builder(URI base) {
      this.base = base;
    }

    /** How a host that the controller does not know is announced (409). */
    public Builder announcer(HostAnnouncer a) {
      this.announcer = Objects.requireNonNull(a, "announcer");
      return this;
    }

    public Builder connectTimeout(Duration d) {
      this.connectTimeout = positive(d, "connectTimeout");
      return this;
    }

    /** How long one request may take (the controller answers after the switches' barriers). */
    public Builder requestTimeout(Duration d) {
      this.requestTimeout = positive(d, "requestTimeout");
      return this;
    }

    /** How long 409 "host not known" is answered by announcing and retrying (default 5 s). */
    public Builder hostUnknownWindow(Duration d) {
      this.hostUnknownWindow = Objects.requireNonNull(d, "hostUnknownWindow");
      return this;
    }

    /** How often a 429 is retried (default 10), waiting at most {@code maxWait} each time. */
    public Builder rateLimitRetries(int retries, Duration maxWait) {
      if (retries < 0) {
        throw new IllegalArgumentException("retries must not be negative");
      }
      this.maxRateLimitRetries = retries;
      this.maxRetryAfter = positive(maxWait, "maxWait");
      return this;
    }

    /**
     * The bearer token sent with every request (docs/security.md); null or blank: none. A token
     * with a line break or a space is refused (it would split the header).
     */
    public Builder token(String t) {
      String v = t == null ? null : t.strip();
      if (v != null && !v.matches("[\\x21-\\x7e]*")) {
        throw new IllegalArgumentException("a token is printable ASCII without spaces");
      }
      this.token = v == null || v.isEmpty() ? null : v;
      return this;
    }

    /**
     * For https URLs: the TLS context to use (e.g. {@link TrustedCa#context} of the controller's
     * CA); null: the JDK's default trust store.
     */
    public Builder tls(SSLContext context) {
      this.tls = context;
      return this;
    }

    public ControllerClient build() {
      return new ControllerClient(this);
    }

    private static Duration positive(Duration d, String what) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive");
      }
      return d;
    }
  }
}
