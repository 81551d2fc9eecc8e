package org.netpubsub.http;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.URIUtil;

/**
 * Serves every request of one {@link RestServer} as a Jetty core handler (no servlet layer, no web
 * framework: the servlet layer and Javalin cost about 4x the CPU of the old JDK server per request,
 * docs/results/rest-layer.md). In order: 413 over the body limit, the bearer-token check, {@code
 * /metrics}, the route table (405 with {@code Allow} for a known path), static files, else 404;
 * then one access-log line. Runs on Jetty's pool: a route may block.
 */
final class Dispatcher extends Handler.Abstract {
  private static final String REMOTE = "org.netpubsub.http.remote";
  private static final HttpField JSON =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");
  private static final HttpField PROMETHEUS =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");

  private final String name;
  private final PrometheusMeterRegistry registry;
  private final Router router;
  private final Authentication authn;
  private final AccessLog accessLog;
  private final StaticFiles statics;
  private final List<Runnable> onScrape;
  private final Function<Throwable, ApiError> errors;
  private final int maxBody;
  private final Map<TimerKey, Timer> timers = new ConcurrentHashMap<>();

  /** A request timer's tags; a record key, so a request builds no string to find its timer. */
  private record TimerKey(String method, String route, int status) {}

  Dispatcher(
      String name,
      PrometheusMeterRegistry registry,
      Router router,
      Authentication authn,
      AccessLog accessLog,
      StaticFiles statics,
      List<Runnable> onScrape,
      Function<Throwable, ApiError> errors,
      int maxBody) {
    this.name = name;
    this.registry = registry;
    this.router = router;
    this.authn = authn;
    this.accessLog = accessLog;
    this.statics = statics;
    this.onScrape = List.copyOf(onScrape);
    this.errors = errors;
    this.maxBody = maxBody;
  }

  @Override
  public boolean handle(
      org.eclipse.jetty.server.Request request, Response response, Callback callback) {
    long start = System.nanoTime();
    String method = request.getMethod();
    String path = request.getHttpURI().getDecodedPath();
    int status;
    try {
      status = serve(request, method, path, response, callback);
    } catch (RuntimeException | IOException e) {
      status = write(response, callback, errors.apply(e).reply());
    }
    accessLog.log(
        name
            + " "
            + remoteAddress(request)
            + " \""
            + method
            + " "
            + path
            + "\" "
            + status
            + " "
            + Math.round((System.nanoTime() - start) / 100_000.0) / 10.0
            + " ms");
    return true;
  }

  /** Answers the request; returns the status sent. */
  private int serve(
      org.eclipse.jetty.server.Request request,
      String method,
      String path,
      Response response,
      Callback callback)
      throws IOException {
    Principal principal;
    try {
      if (request.getLength() > maxBody) {
        throw Request.tooLarge(maxBody);
      }
      principal = authn.check(path, request.getHeaders().get(HttpHeader.AUTHORIZATION));
    } catch (ApiError e) {
      return write(response, callback, e.reply());
    }
    if (path.equals("/metrics")) {
      return metrics(method, response, callback);
    }
    Router.Match match = router.match(segments(request.getHttpURI().getPath()));
    if (match == null) {
      StaticFiles.File f = method.equals("GET") && statics != null ? statics.get(path) : null;
      if (f == null) {
        return write(response, callback, new ApiError(404, "no such resource: " + path).reply());
      }
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, f.type());
      return send(response, callback, 200, f.bytes());
    }
    Route route = match.route(method);
    if (route == null) {
      return write(response, callback, notAllowed(method, match.allow()));
    }
    Timer.Sample sample = Timer.start(registry);
    Reply r;
    try {
      r = route.handle(new Request(request, path, match.params(), principal, maxBody));
    } catch (Exception e) {
      r = errors.apply(e).reply();
    }
    if (r.status() == 403) {
      Authentication.forbidden(registry);
    }
    byte[] body = body(r);
    // timed before the answer goes out: a client that has its answer finds it in /metrics
    sample.stop(timer(method, match.pattern(), r.status()));
    return write(response, callback, r, body);
  }

  private int metrics(String method, Response response, Callback callback) {
    if (!method.equals("GET")) {
      return write(response, callback, notAllowed(method, "GET"));
    }
    onScrape.forEach(Runnable::run);
    response.getHeaders().put(PROMETHEUS);
    return send(response, callback, 200, registry.scrape().getBytes(StandardCharsets.UTF_8));
  }

  private static Reply notAllowed(String method, String allow) {
    return new ApiError(405, method + " is not allowed here", null, Map.of("Allow", allow)).reply();
  }

  /** The decoded segments of a raw path ({@code %2F} inside one stays inside it). */
  private static List<String> segments(String rawPath) {
    List<String> raw = Router.split(rawPath);
    List<String> out = new ArrayList<>(raw.size());
    for (String s : raw) {
      out.add(s.indexOf('%') < 0 ? s : URIUtil.decodePath(s));
    }
    return out;
  }

  /** One timer per method, route and status, built once: not a builder and a lookup a request. */
  private Timer timer(String method, String path, int status) {
    return timers.computeIfAbsent(
        new TimerKey(method, path, status),
        k ->
            HttpMetrics.latency("nps.http.requests", "REST requests, by route and status")
                .tags("method", method, "route", path, "status", "" + status)
                .register(registry));
  }

  /**
   * The client's address as text, formatted once per connection (kept as a connection attribute): a
   * keep-alive client sends many requests over one connection, and formatting the address was a
   * visible share of a cached GET's time (docs/results/rest-layer.md).
   */
  private static String remoteAddress(org.eclipse.jetty.server.Request request) {
    ConnectionMetaData connection = request.getConnectionMetaData();
    if (connection.getAttribute(REMOTE) instanceof String known) {
      return known;
    }
    String address = org.eclipse.jetty.server.Request.getRemoteAddr(request);
    connection.setAttribute(REMOTE, address);
    return address;
  }

  static int write(Response response, Callback callback, Reply r) {
    return write(response, callback, r, body(r));
  }

  private static byte[] body(Reply r) {
    byte[] body = r.json();
    if (body == null) {
      try {
        body = Json.MAPPER.writeValueAsBytes(r.body());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return body;
  }

  private static int write(Response response, Callback callback, Reply r, byte[] body) {
    r.headers().forEach((k, v) -> response.getHeaders().put(k, v));
    response.getHeaders().put(JSON);
    return send(response, callback, r.status(), body);
  }

  private static int send(Response response, Callback callback, int status, byte[] body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return status;
  }
}
