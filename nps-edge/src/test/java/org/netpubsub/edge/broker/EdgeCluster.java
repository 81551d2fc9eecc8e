package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.coordinator.EdgeCoordinator;
import org.netpubsub.edge.link.TestKeys;

/**
 * Edges on loopback for tests: an in-process coordinator (spray mode, SQLite in {@code dir}), and
 * per edge a real Mosquitto process with an in-process agent.
 */
final class EdgeCluster implements Closeable {
  private final String db;
  EdgeCoordinator coordinator;
  final List<Mosquitto> brokers = new ArrayList<>();
  final List<EdgeAgent> agents = new ArrayList<>();

  private final Path dir;
  private final URI controller;
  private final IntFunction<InetSocketAddress> listen;
  private final BiFunction<Integer, EdgeAgent.Builder, EdgeAgent.Builder> tune;

  private EdgeCluster(
      Path dir,
      URI controller,
      IntFunction<InetSocketAddress> listen,
      BiFunction<Integer, EdgeAgent.Builder, EdgeAgent.Builder> tune) {
    this.dir = dir;
    this.db = "sqlite:" + dir.resolve("coordinator.db");
    this.controller = controller;
    this.listen = listen;
    this.tune = tune;
  }

  static EdgeCluster start(Path dir, int edges) throws IOException {
    return start(dir, edges, (i, b) -> b);
  }

  /** Spray mode; {@code tune} adds options to agent {@code i}'s builder. */
  static EdgeCluster start(
      Path dir, int edges, BiFunction<Integer, EdgeAgent.Builder, EdgeAgent.Builder> tune)
      throws IOException {
    return start(dir, edges, null, i -> new InetSocketAddress("127.0.0.1", 0), tune);
  }

  /** Network mode with {@code controller}; agents listen where {@code listen} says. */
  static EdgeCluster start(
      Path dir, int edges, URI controller, IntFunction<InetSocketAddress> listen)
      throws IOException {
    return start(dir, edges, controller, listen, (i, b) -> b);
  }

  private static EdgeCluster start(
      Path dir,
      int edges,
      URI controller,
      IntFunction<InetSocketAddress> listen,
      BiFunction<Integer, EdgeAgent.Builder, EdgeAgent.Builder> tune)
      throws IOException {
    EdgeCluster c = new EdgeCluster(dir, controller, listen, tune);
    try {
      c.coordinator = c.startCoordinator(new InetSocketAddress("127.0.0.1", 0));
      for (int i = 0; i < edges; i++) {
        c.addEdge();
      }
      return c;
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** Starts one more edge (a Mosquitto and its agent), numbered next; returns its index. */
  int addEdge() throws IOException {
    brokers.add(Mosquitto.start(dir));
    agents.add(startAgent(agents.size()));
    return agents.size() - 1;
  }

  private EdgeCoordinator startCoordinator(InetSocketAddress at) throws IOException {
    EdgeCoordinator c =
        EdgeCoordinator.builder()
            .controller(controller)
            .listen(at)
            .database(db)
            .changeWait(Duration.ofSeconds(5))
            .ackTimeout(Duration.ofSeconds(2))
            .start();
    awaitAnswering(c.address());
    return c;
  }

  /**
   * Waits until the coordinator has answered a request over java.net.http, as the agents ask it.
   * The first request a JVM makes to a fresh coordinator loads and links the HTTP client's, Jetty's
   * and Jackson's request paths: at load 38-41 its handler began 3.2-5.1 s after the agent sent its
   * registration (and registered the edge in 0.34-0.44 s), past the agent's 5 s request timeout, so
   * the agent refused to start. That cost is the test JVM's, not the agent's: paid here, waited for
   * without a request timeout, and every agent's request keeps its own 5 s.
   */
  private static void awaitAnswering(InetSocketAddress at) {
    HttpRequest edges =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/v1/edges"))
            .build();
    try (HttpClient http = HttpClient.newHttpClient()) {
      CompletableFuture<HttpResponse<Void>> answer =
          http.sendAsync(edges, HttpResponse.BodyHandlers.discarding());
      try {
        Poll.until("the coordinator answers", Duration.ofSeconds(60), answer::isDone);
      } catch (AssertionError e) {
        http.shutdownNow(); // close() would wait for the answer
        throw e;
      }
      if (answer.join().statusCode() != 200) {
        throw new IllegalStateException("coordinator answered " + answer.join().statusCode());
      }
    }
  }

  private EdgeAgent startAgent(int i) throws IOException {
    InetSocketAddress c = coordinator.address();
    return tune.apply(i, EdgeAgent.builder().auth(TestKeys.AUTH))
        .edge("e" + i)
        .broker(brokers.get(i).uri())
        .coordinator(URI.create("http://127.0.0.1:" + c.getPort()))
        .listen(listen.apply(i))
        .changeWait(Duration.ofSeconds(5))
        .start();
  }

  String pahoUri(int edge) {
    return brokers.get(edge).pahoUri();
  }

  /** Waits until the coordinator has acknowledged {@code filter} at {@code edge}. */
  void awaitFilter(int edge, String filter) {
    EdgeAgent a = agents.get(edge);
    Poll.until(
        "filter " + filter + " acknowledged at e" + edge,
        Duration.ofSeconds(10),
        () -> a.acknowledgedFilters().contains(filter) && !a.reportsPending());
  }

  /**
   * Waits until the coordinator acknowledged that {@code filter} left edge {@code edge}: the other
   * agents have dropped the routes it changed.
   */
  void awaitNoFilter(int edge, String filter) {
    EdgeAgent a = agents.get(edge);
    Poll.until(
        "filter " + filter + " gone at e" + edge,
        Duration.ofSeconds(10),
        () -> !a.acknowledgedFilters().contains(filter) && !a.reportsPending());
  }

  /** Waits until every datagram sent has been read and handled. */
  void settle() {
    awaitSettled(agents, Duration.ofSeconds(10), false);
  }

  /**
   * Waits until every datagram the agents sent has been read and published or dropped by them (with
   * {@code someSent}, and at least one was sent).
   */
  static void awaitSettled(List<EdgeAgent> agents, Duration timeout, boolean someSent) {
    Poll.until(
        "datagrams settled",
        timeout,
        () -> {
          long sent = 0;
          long read = 0;
          for (EdgeAgent a : agents) {
            AgentStats s = a.stats();
            sent += s.forwarded();
            read += s.received();
            if (s.received() != s.published() + s.droppedTotal()) {
              return false;
            }
          }
          return (sent > 0 || !someSent) && sent == read;
        });
  }

  /**
   * Reliable mode's settle: nothing waits or is missing at any edge, every tail heartbeat has been
   * sent, and every datagram read was published or dropped.
   */
  void settleReliable() {
    Poll.until(
        "reliable delivery settled",
        Duration.ofSeconds(20),
        () -> {
          for (EdgeAgent a : agents) {
            AgentStats s = a.stats();
            if (s.reliable("pending") != 0
                || s.reliable("heartbeats_pending") != 0
                || s.received() != s.published() + s.droppedTotal()) {
              return false;
            }
          }
          return true;
        });
  }

  void restartAgent(int i) throws IOException {
    agents.get(i).close();
    agents.set(i, startAgent(i));
  }

  void restartCoordinator() throws IOException {
    InetSocketAddress at = coordinator.address();
    coordinator.close();
    coordinator = startCoordinator(at);
  }

  @Override
  public void close() {
    agents.forEach(EdgeAgent::close);
    brokers.forEach(Mosquitto::close);
    if (coordinator != null) {
      coordinator.close();
    }
  }
}
