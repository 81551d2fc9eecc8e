package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27's last row: a real coordinator process ({@code nps edge-coordinator}, a child JVM on
 * SQLite) killed with SIGKILL in the middle of a request of 10 000 filters, then started again on
 * the same database, holds all of the request or none of it (before one transaction per request: 2
 * 149 of 3 000). "In the middle" is observed, not slept for: the test polls the database for its
 * write lock ({@code BEGIN IMMEDIATE} answering busy), which the coordinator holds from the
 * request's first insert to its commit, and kills the process as soon as it sees it.
 */
class CoordinatorKillTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("listening: (http://[^ ]+) ");
  private static final int FILTERS = 10_000; // the cap of one request
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCoordinatorKilledMidRequestHoldsAllOfTheRequestOrNoneAfterItsRestart() throws Exception {
    Path db = dir.resolve("c.db");
    Coordinator first = start(db);
    assertThat(
            send(first, "PUT", "/v1/edges/paris", "{\"address\":\"127.0.0.1\",\"port\":7001}")
                .statusCode())
        .isEqualTo(200);

    boolean sawItsTransaction;
    try (Connection probe = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      try (Statement s = probe.createStatement()) {
        s.execute("PRAGMA busy_timeout = 0"); // busy at once: the probe must never wait
      }
      CompletableFuture<HttpResponse<String>> request =
          http.sendAsync(
              request(first, "POST", "/v1/edges/paris/filters", filters()),
              HttpResponse.BodyHandlers.ofString());
      sawItsTransaction = pollUntilWriting(probe, request);
      first.process().destroyForcibly(); // SIGKILL: no shutdown hook, no rollback, no close
      assertThat(first.process().waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
      if (sawItsTransaction) {
        assertThat(request)
            .as("killed before it was answered")
            .failsWithin(DEADLINE)
            .withThrowableOfType(Exception.class);
      }
    }
    // the request's writes were under way when it died: seen, not assumed
    assertThat(sawItsTransaction).as("the kill came inside the request's transaction").isTrue();

    Coordinator second = start(db);
    HttpResponse<String> edges = send(second, "GET", "/v1/edges", null);
    assertThat(edges.statusCode()).isEqualTo(200);
    JsonNode paris = JSON.readTree(edges.body()).get("edges").get(0);
    assertThat(paris.get("name").asText()).isEqualTo("paris");
    assertThat(paris.get("filters").size()).as("all of the request or none of it").isIn(0, FILTERS);
  }

  /**
   * Polls until the coordinator holds the database's write lock (true) or the request was answered
   * first (false). Each look takes the lock for an instant and gives it back at once; the
   * coordinator's own busy timeout (3 s) waits that instant out.
   */
  private static boolean pollUntilWriting(
      Connection probe, CompletableFuture<HttpResponse<String>> request) throws SQLException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    try (Statement s = probe.createStatement()) {
      while (System.nanoTime() < end) {
        if (request.isDone()) {
          return false;
        }
        try {
          s.execute("BEGIN IMMEDIATE");
        } catch (SQLException busy) {
          if (busy.getMessage().contains("SQLITE_BUSY")) {
            return true;
          }
          throw busy;
        }
        s.execute("ROLLBACK");
        Thread.onSpinWait();
      }
    }
    throw new AssertionError("the request neither started writing nor was answered in " + DEADLINE);
  }

  private static String filters() throws Exception {
    List<String> f = new ArrayList<>();
    for (int i = 0; i < FILTERS; i++) {
      f.add(Integer.toString(i, 36));
    }
    String body = JSON.writeValueAsString(java.util.Map.of("added", f));
    assertThat(body.length()).isLessThan(64 * 1024); // under the coordinator's body limit
    return body;
  }

  private record Coordinator(Process process, String api) {}

  /** {@code nps edge-coordinator} in a child JVM, once it says where it listens. */
  private Coordinator start(Path db) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process p =
        new ProcessBuilder(
                java,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", // starts sooner; the child runs for seconds
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classPath,
                "org.netpubsub.cli.Nps",
                "edge-coordinator",
                "--db",
                "sqlite:" + db,
                "--listen",
                "127.0.0.1:0")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(p);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) { // ends when the child does
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "coordinator-stdout");
        drain.setDaemon(true);
        drain.start();
        return new Coordinator(p, m.group(1));
      }
    }
    throw new AssertionError("the coordinator exited with " + p.waitFor() + " before listening");
  }

  private HttpRequest request(Coordinator c, String method, String path, String body) {
    return HttpRequest.newBuilder(URI.create(c.api() + path))
        .timeout(DEADLINE)
        .method(method, HttpRequest.BodyPublishers.ofString(body == null ? "" : body))
        .build();
  }

  private HttpResponse<String> send(Coordinator c, String method, String path, String body)
      throws Exception {
    return http.send(request(c, method, path, body), HttpResponse.BodyHandlers.ofString());
  }
}
