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
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.IntSupplier;
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
 * then one access-log line.
 *
 * <p>A non-blocking handler: Jetty calls it on the thread that read the request (its selector), so
 * the answers that need nothing but memory (errors, static files, {@link RestServer.Builder#inline}
 * routes such as the cached topology) go out without a hand-off to another thread; a hand-off per
 * request was most of the gap in CPU per request to the old server (docs/results/rest-layer.md).
 * Every other route, and {@code /metrics}, runs on the {@code blocking} executor (Jetty's pool, or
 * virtual threads), where it may block until switches answer.
 */
final class Dispatcher extends Handler.Abstract.NonBlocking {
  private static final String REMOTE = "org.netpubsub.http.remote";

  /** A declared body at most this long is read to its end before the answer goes out. */
  private static final long DRAIN_LIMIT = 1 << 20;

  /** {@link #serve}'s status for a request handed to the blocking executor, which answers it. */
  private static final int DISPATCHED = -1;

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
  private final Executor blocking;
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
      int maxBody,
      Executor blocking) {
    this.name = name;
    this.registry = registry;
    this.router = router;
    this.authn = authn;
    this.accessLog = accessLog;
    this.statics = statics;
    this.onScrape = List.copyOf(onScrape);
    this.errors = errors;
    this.maxBody = maxBody;
    this.blocking = blocking;
  }

  @Override
  public boolean handle(
      org.eclipse.jetty.server.Request request, Response response, Callback callback) {
    long start = System.nanoTime();
    if (request.getLength() > 0 && request.getLength() <= DRAIN_LIMIT) {
      response = new DrainingResponse(request, response);
    }
    String method = request.getMethod();
    String path = request.getHttpURI().getDecodedPath();
    int status;
    try {
      status = serve(request, method, path, response, callback, start);
    } catch (RuntimeException | IOException e) {
      status = write(response, callback, errors.apply(e).reply());
    }
    if (status != DISPATCHED) {
      accessLog.log(name, remoteAddress(request), method, path, status, System.nanoTime() - start);
    }
    return true;
  }

  /** Answers the request, or hands it to {@link #blocking}; returns the status sent. */
  private int serve(
      org.eclipse.jetty.server.Request request,
      String method,
      String path,
      Response response,
      Callback callback,
      long start)
      throws IOException {
    Principal principal;
    try {
      if (request.getLength() > maxBody) {
        // DrainingResponse reads a body up to DRAIN_LIMIT first; a longer one's connection closes
        return write(response, callback, Request.tooLarge(maxBody).reply());
      }
      principal = authn.check(path, request.getHeaders().get(HttpHeader.AUTHORIZATION));
    } catch (ApiError e) {
      return write(response, callback, e.reply());
    }
    if (path.equals("/metrics")) {
      if (!method.equals("GET")) {
        return write(response, callback, notAllowed(method, "GET"));
      }
      return dispatch(
          request, method, path, start, response, callback, () -> metrics(response, callback));
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
    Request req = new Request(request, path, match.params(), principal, maxBody);
    if (route instanceof Route.Inline) {
      return answer(route, req, method, match.pattern(), response, callback);
    }
    return dispatch(
        request,
        method,
        path,
        start,
        response,
        callback,
        () -> answer(route, req, method, match.pattern(), response, callback));
  }

  /**
   * Runs {@code answer} on the blocking executor, then logs the request; 503 if the executor takes
   * no more work (its queue is full).
   */
  private int dispatch(
      org.eclipse.jetty.server.Request request,
      String method,
      String path,
      long start,
      Response response,
      Callback callback,
      IntSupplier answer) {
    try {
      blocking.execute(
          () -> {
            int status;
            try {
              status = answer.getAsInt();
            } catch (RuntimeException e) {
              status = write(response, callback, errors.apply(e).reply());
            }
            accessLog.log(
                name, remoteAddress(request), method, path, status, System.nanoTime() - start);
          });
      return DISPATCHED;
    } catch (RejectedExecutionException e) {
      throw new ApiError(503, "the server is busy: retry later");
    }
  }

  /** Runs {@code route} (timed) and writes its answer; returns the status sent. */
  private int answer(
      Route route, Request req, String method, String pattern, Response response, Callback cb) {
    Timer.Sample sample = Timer.start(registry);
    Reply r;
    try {
      r = route.handle(req);
    } catch (Exception e) {
      r = errors.apply(e).reply();
    }
    if (r.status() == 403) {
      Authentication.forbidden(registry);
    }
    byte[] body = body(r);
    // timed before the answer goes out: a client that has its answer finds it in /metrics
    sample.stop(timer(method, pattern, r.status()));
    return write(response, cb, r, body);
  }

  private int metrics(Response response, Callback callback) {
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
