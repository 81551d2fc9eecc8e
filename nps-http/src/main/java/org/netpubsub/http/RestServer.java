package org.netpubsub.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One REST server on Jetty 12's core API (no servlet layer; {@link Dispatcher} serves and {@link
 * Router} matches), the same for the controller and the edge coordinator (docs/operations.md): JSON
 * answers, errors as {@code {"error":{"code","message","field"?}}}, 405 with {@code Allow}, 413
 * over the body limit, one access-log line per request, an idle timeout, deadlines for a request's
 * header and body and a bound on open connections, {@code /health/live}, {@code /health/ready},
 * {@code /metrics} (Prometheus text) and {@code /v1/openapi.json}. Requests run on Jetty's thread
 * pool (up to {@link Builder#maxThreads} threads, 32 by default), so a route may block until
 * switches answer.
 */
public final class RestServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);
  private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH");

  private final Server server;
  private final List<String> routes;
  private final InetSocketAddress address;
  private final AccessLog accessLog;

  private RestServer(
      Server server, List<String> routes, InetSocketAddress address, AccessLog accessLog) {
    this.server = server;
    this.routes = routes;
    this.address = address;
    this.accessLog = accessLog;
  }

  public static Builder builder(String name, PrometheusMeterRegistry registry) {
    return new Builder(name, registry);
  }

  /** Where the server listens (the real port when it was asked for port 0). */
  public InetSocketAddress address() {
    return address;
  }

  /**
   * The routes registered, {@code "METHOD /path/{param}"}, in the OpenAPI path syntax: the
   * application's and the built-in ones alike.
   */
  public List<String> routes() {
    return routes;
  }

  @Override
  public void close() {
    stop(server);
    accessLog.close();
  }

  /** Configures one server; {@link #start} binds it. */
  public static final class Builder {
    private final String name;
    private final PrometheusMeterRegistry registry;
    private InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
    private int maxBody = 64 * 1024;
    private Duration idleTimeout = Duration.ofSeconds(30);
    private Duration headerTimeout = Duration.ofSeconds(10);
    private Duration bodyTimeout = Duration.ofSeconds(30);
    private int maxConnections = 1024;
    private int maxConnectionsPerSource = 256;
    private Authenticator auth;
    private ServerTls tls;
    private final List<Health.Check> ready = new ArrayList<>();
    private final Map<String, Map<String, Route>> table = new LinkedHashMap<>();
    private final List<Mapper<?>> mappers = new ArrayList<>();
    private String openApi;
    private String staticDir;
    private boolean virtualThreads;
    private int maxThreads = 32;
    private final List<Runnable> onScrape = new ArrayList<>();

    private Builder(String name, PrometheusMeterRegistry registry) {
      this.name = name;
      this.registry = registry;
    }

    public Builder address(InetSocketAddress a) {
      this.address = a;
      return this;
    }

    /** The largest request body accepted (413 beyond). */
    public Builder maxBody(int bytes) {
      this.maxBody = bytes;
      return this;
    }

    /**
     * How long a connection may stay without reading or writing (a client that sends a request
     * slowly, or keeps an idle keep-alive connection); a route that blocks longer is not cut.
     */
    public Builder idleTimeout(Duration d) {
      this.idleTimeout = d;
      return this;
    }

    /**
     * How long a request header may take to arrive: from the connection's accept for its first
     * request (a TLS handshake included), from its first byte for a later one. A connection past it
     * is closed and counted ({@link ReadDeadlines}), however steadily it trickles bytes.
     */
    public Builder headerTimeout(Duration d) {
      this.headerTimeout = d;
      return this;
    }

    /**
     * How long the server waits for a request's body once a route reads it (time the route has not
     * asked for it is not counted); past it the connection is closed and counted.
     */
    public Builder bodyTimeout(Duration d) {
      this.bodyTimeout = d;
      return this;
    }

    /** Connections beyond this many wait in the listen backlog until one closes. */
    public Builder maxConnections(int n) {
      this.maxConnections = n;
      return this;
    }

    /** Connections from one source address beyond this many are closed at once. */
    public Builder maxConnectionsPerSource(int n) {
      this.maxConnectionsPerSource = n;
      return this;
    }

    /**
     * Authenticate requests by bearer token against {@code principals} (docs/security.md); null: no
     * authentication, every request is {@link Principal#ANONYMOUS} (a WARN line says so).
     */
    public Builder auth(Authenticator principals) {
      this.auth = principals;
      return this;
    }

    /** Serve HTTPS with these settings instead of plain HTTP (docs/security.md); null: HTTP. */
    public Builder tls(ServerTls settings) {
      this.tls = settings;
      return this;
    }

    /**
     * Requests on virtual threads, for servers whose requests mostly wait (the coordinator's change
     * polls). Off by default: Jetty's own pool ({@link #maxThreads}) served short requests at about
     * 4x the requests/s on one connection (docs/operations.md).
     */
    public Builder virtualThreads(boolean on) {
      this.virtualThreads = on;
      return this;
    }

    /**
     * The most threads Jetty's pool runs (its selectors and acceptor included; 32 by default). A
     * pool as large as the number of connections (Jetty's default, 200) runs one thread per busy
     * connection: at 200 HTTPS clients on 2 CPUs it served 657 requests/s against 1 093 with 32
     * threads, at 1.5x the CPU per request (docs/results/rest-tls.md). Readiness beyond the pool
     * waits in its queue; a route that blocks (a pub/sub request waiting for the switches) holds
     * one.
     */
    public Builder maxThreads(int n) {
      if (n < 8) {
        throw new IllegalArgumentException("maxThreads must be at least 8, not " + n);
      }
      this.maxThreads = n;
      return this;
    }

    /** A readiness condition, reported by name in {@code /health/ready}. */
    public Builder ready(String check, BooleanSupplier holds) {
      ready.add(new Health.Check(check, holds));
      return this;
    }

    /** The OpenAPI document served at {@code /v1/openapi.json}: a classpath resource. */
    public Builder openApi(String resource) {
      this.openApi = resource;
      return this;
    }

    /** Runs before each {@code GET /metrics} reads the registry (e.g. {@link DynamicMeters}). */
    public Builder onScrape(Runnable hook) {
      onScrape.add(hook);
      return this;
    }

    /** Static files under {@code /}, from a classpath directory (the controller's dashboard). */
    public Builder staticFiles(String classpathDir) {
      this.staticDir = classpathDir;
      return this;
    }

    /**
     * A route; {@code path} uses {@code {param}} for one segment and {@code <param>} for the rest
     * of the path, slashes included.
     */
    public Builder route(String method, String path, Route route) {
      if (table.computeIfAbsent(path, p -> new LinkedHashMap<>()).put(method, route) != null) {
        throw new IllegalArgumentException("route registered twice: " + method + " " + path);
      }
      return this;
    }

    /**
     * A GET answered on the thread that read the request (Jetty's selector), without a hand-off to
     * the pool: only for answers that never block and take microseconds, such as a cached read
     * ({@link CachedJson}). A hand-off per request cost about a fifth of the CPU of a cached GET
     * (docs/results/rest-layer.md); an inline route that blocked would stall every connection.
     */
    public Builder inline(String path, Route route) {
      return route("GET", path, new Route.Inline(route));
    }

    /** How an exception of this type is answered (checked before the built-in mapping). */
    public <E extends Throwable> Builder error(Class<E> type, Function<E, ApiError> mapping) {
      mappers.add(new Mapper<>(type, mapping));
      return this;
    }

    /** Binds the address and serves; {@link PortInUseException} if it is taken. */
    public RestServer start() throws IOException {
      Health health = new Health(ready);
      route("GET", "/health/live", r -> health.live());
      route("GET", "/health/ready", r -> health.ready());
      if (openApi != null) {
        byte[] doc = resource(openApi);
        route("GET", "/v1/openapi.json", r -> Reply.ok(Json.MAPPER.readTree(doc)));
      }
      List<String> registered = new ArrayList<>();
      registered.add("GET /metrics");
      table.forEach(
          (path, byMethod) -> {
            for (String m : METHODS) {
              if (byMethod.containsKey(m)) {
                registered.add(m + " " + path.replace('<', '{').replace('>', '}'));
              }
            }
          });
      // bound here, before Jetty starts, so a taken port is one exception and no framework log
      ServerSocketChannel channel = bind();
      AccessLog accessLog = new AccessLog(name, registry);
      QueuedThreadPool pool = new QueuedThreadPool(maxThreads, 8);
      pool.setName(name + "-http");
      if (virtualThreads) {
        pool.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
      }
      // the routes that may block: on virtual threads, or on the pool (Dispatcher)
      Executor blocking = virtualThreads ? pool.getVirtualThreadsExecutor() : pool;
      Server server = new Server(pool);
      server.addConnector(connector(server, channel));
      server.setErrorHandler(new JsonErrorHandler());
      server.setHandler(
          new Dispatcher(
              name,
              registry,
              new Router(table),
              new Authentication(name, auth, registry),
              accessLog,
              staticDir == null ? null : new StaticFiles(staticDir),
              onScrape,
              this::map,
              maxBody,
              blocking));
      try {
        server.start();
      } catch (Exception e) {
        stop(server);
        channel.close();
        accessLog.close();
        if (e instanceof IOException io) {
          throw io;
        }
        throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
      }
      int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
      if (tls != null) {
        LOG.info("{}: HTTPS on port {}, records by {}", name, port, tls.provider());
      }
      return new RestServer(
          server,
          List.copyOf(new LinkedHashSet<>(registered)),
          new InetSocketAddress(address.getAddress(), port),
          accessLog);
    }

    /**
     * The one connector on the bound channel, with the idle timeout, the read deadlines, the bound
     * on open connections and the per-source bound.
     */
    private ServerConnector connector(Server server, ServerSocketChannel channel)
        throws IOException {
      HttpConfiguration http = new HttpConfiguration();
      http.setSendServerVersion(false);
      // a group name is one path parameter with its slashes encoded (%2F): Jetty's default
      // refuses such paths as ambiguous; the router splits before decoding, so they are not
      http.setUriCompliance(
          UriCompliance.DEFAULT.with("nps", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
      int selectors =
          TlsConnector.selectors(Runtime.getRuntime().availableProcessors(), maxThreads);
      ServerConnector c = TlsConnector.of(server, http, tls, selectors);
      c.setHost(address.getHostString());
      c.setPort(address.getPort());
      c.setIdleTimeout(idleTimeout.toMillis());
      c.open(channel);
      server.addBean(new NetworkConnectionLimit(maxConnections, c));
      c.addBean(new SourceConnectionLimit(maxConnectionsPerSource, registry));
      c.addBean(new ReadDeadlines(headerTimeout, bodyTimeout, c.getScheduler(), registry));
      return c;
    }

    private ServerSocketChannel bind() throws IOException {
      ServerSocketChannel ch = ServerSocketChannel.open();
      try {
        ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        ch.bind(address, 128);
        return ch;
      } catch (BindException e) {
        ch.close();
        throw new PortInUseException(name, address, e);
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
    }

    /** Bad input is 400 with its message; anything unexpected is 500, logged with its trace. */
    private ApiError map(Throwable e) {
      for (Mapper<?> m : mappers) {
        ApiError mapped = m.apply(e);
        if (mapped != null) {
          return mapped;
        }
      }
      if (e instanceof ApiError a) {
        return a;
      }
      if (e instanceof IllegalArgumentException bad) {
        return new ApiError(400, bad.getMessage());
      }
      LOG.warn("{}: request failed", name, e);
      return new ApiError(500, String.valueOf(e));
    }
  }

  private static void stop(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("stopping the HTTP server failed", e);
    }
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = RestServer.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("no resource " + name);
      }
      return in.readAllBytes();
    }
  }

  private record Mapper<E extends Throwable>(Class<E> type, Function<E, ApiError> mapping) {
    ApiError apply(Throwable e) {
      return type.isInstance(e) ? mapping.apply(type.cast(e)) : null;
    }
  }
}
