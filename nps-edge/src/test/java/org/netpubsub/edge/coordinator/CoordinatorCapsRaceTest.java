package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.http.PostgresServer;

/**
 * Issue 27: concurrent requests racing for the last place under a cap reach exactly the cap, never
 * one more, on SQLite and on PostgreSQL. Before the fix the API checked a snapshot taken outside
 * the request's transaction, so every racer that read it before the first write went through. The
 * racers start while another request's write stalls ({@link SlowWritesStore}), so they all wait at
 * once, as they would behind a slow disk; the coordinator restarted on the database holds the same.
 */
class CoordinatorCapsRaceTest {
  private static final CoordinatorCaps CAPS = new CoordinatorCaps(3, 5, 5);
  private static final int RACERS = 16;
  private static final Duration ACK = Duration.ofMillis(20);
  // how long the blocking write stalls: the racers arrive meanwhile (16 requests on loopback)
  private static final long STALL_MS = 500;

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void racersForTheLastPlaceReachExactlyTheCapOnSqlite() throws Exception {
    race("sqlite:" + dir.resolve("c.db"));
  }

  @Test
  void racersForTheLastPlaceReachExactlyTheCapOnPostgresql() throws Exception {
    assumeTrue(PostgresServer.available(), "PostgreSQL is not installed, or not running as root");
    race(PostgresServer.shared().newDatabase());
  }

  private void race(String db) throws Exception {
    SlowWritesStore store = new SlowWritesStore(CoordinatorStore.open(db));
    try (EdgeCoordinator c = start(store)) {
      assertThat(call(c, "PUT", "/v1/edges/e0", edge(7000)).statusCode()).isEqualTo(200);
      assertThat(call(c, "PUT", "/v1/edges/e1", edge(7001)).statusCode()).isEqualTo(200);
      // one place left. While e0 re-registers (no new edge) and its write stalls, RACERS new edges
      // ask for the last place
      CompletableFuture<HttpResponse<String>> blocker =
          stalled(store.stallNextWrite("e0", STALL_MS), req(c, "PUT", "/v1/edges/e0", edge(7000)));
      List<Integer> edges = all(i -> req(c, "PUT", "/v1/edges/r" + i, edge(7100 + i)));
      assertThat(blocker.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(edges.stream().filter(s -> s == 200).count()).as("edges admitted").isEqualTo(1);
      assertThat(edges.stream().filter(s -> s == 429).count()).isEqualTo(RACERS - 1);
      assertThat(c.edges()).hasSize(CAPS.edges());

      // e0 holds 4 of its 5 filters. While a filter of e1 is written, stalled, RACERS requests add
      // one new filter each to e0
      String four = "{\"added\":[\"a\",\"b\",\"c\",\"d\"]}";
      assertThat(call(c, "POST", "/v1/edges/e0/filters", four).statusCode()).isEqualTo(200);
      blocker =
          stalled(
              store.stallNextWrite("e1", STALL_MS),
              req(c, "POST", "/v1/edges/e1/filters", "{\"added\":[\"z\"]}"));
      List<Integer> filters =
          all(i -> req(c, "POST", "/v1/edges/e0/filters", "{\"added\":[\"f" + i + "\"]}"));
      assertThat(blocker.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(filters.stream().filter(s -> s == 200).count()).as("filters added").isEqualTo(1);
      assertThat(filters.stream().filter(s -> s == 429).count()).isEqualTo(RACERS - 1);
      assertThat(filtersOf(c, "e0")).hasSize(CAPS.filtersPerEdge());
    }
    // the database holds what the coordinator answered, no more
    try (EdgeCoordinator c = start(CoordinatorStore.open(db))) {
      assertThat(c.edges()).hasSize(CAPS.edges());
      assertThat(filtersOf(c, "e0")).hasSize(CAPS.filtersPerEdge());
    }
  }

  /** Sends {@code r} and returns once its write has started to stall. */
  private CompletableFuture<HttpResponse<String>> stalled(CountDownLatch stalling, HttpRequest r)
      throws Exception {
    CompletableFuture<HttpResponse<String>> f =
        http.sendAsync(r, HttpResponse.BodyHandlers.ofString());
    assertThat(stalling.await(60, TimeUnit.SECONDS)).as("the blocker's write started").isTrue();
    return f;
  }

  private static EdgeCoordinator start(CoordinatorStore store) throws Exception {
    return EdgeCoordinator.builder().store(store).caps(CAPS).ackTimeout(ACK).start();
  }

  private static Set<String> filtersOf(EdgeCoordinator c, String edge) {
    Set<String> out = new TreeSet<>();
    c.edges().forEach((e, f) -> out.addAll(e.name().equals(edge) ? f : Set.of()));
    return out;
  }

  /** The statuses of {@link #RACERS} requests, each on its own thread, released at once. */
  private List<Integer> all(IntFunction<HttpRequest> request) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Integer>> answers = new ArrayList<>();
    for (int i = 0; i < RACERS; i++) {
      HttpRequest r = request.apply(i);
      CompletableFuture<Integer> answer = new CompletableFuture<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try {
                  go.await();
                  answer.complete(
                      http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode());
                } catch (Exception e) {
                  answer.completeExceptionally(e);
                }
              });
      answers.add(answer);
    }
    go.countDown();
    List<Integer> out = new ArrayList<>();
    for (CompletableFuture<Integer> a : answers) {
      out.add(a.get(60, TimeUnit.SECONDS));
    }
    return out;
  }

  private static HttpRequest req(EdgeCoordinator c, String method, String path, String body) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.address().getPort() + path))
        .method(method, HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private HttpResponse<String> call(EdgeCoordinator c, String method, String path, String body)
      throws Exception {
    return http.send(req(c, method, path, body), HttpResponse.BodyHandlers.ofString());
  }

  private static String edge(int port) {
    return "{\"address\":\"127.0.0.1\",\"port\":" + port + "}";
  }
}
