package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Slowloris on a real socket: a header or a body trickled one byte every 50 ms (well inside the 10
 * s idle timeout) is cut at its deadline (600 ms here, 10 s and 30 s by default) and counted; a
 * request sent at once on the same server is answered.
 */
class ReadDeadlinesTest {
  private static final Duration DEADLINE = Duration.ofMillis(600);
  private final PrometheusMeterRegistry metrics = HttpMetrics.newRegistry();
  private final ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
  private RestServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        RestServer.builder("test", metrics)
            .idleTimeout(Duration.ofSeconds(10))
            .headerTimeout(DEADLINE)
            .bodyTimeout(DEADLINE)
            .route("GET", "/v1/ping", r -> Reply.ok(Json.MAPPER.createObjectNode().put("ok", 1)))
            .route("POST", "/v1/echo", r -> Reply.ok(r.json()))
            .start();
  }

  @AfterEach
  void stop() {
    trickler.shutdownNow();
    server.close();
  }

  /**
   * Sends {@code head} at once, then one byte of {@code trickle} every 50 ms from another thread.
   */
  private Socket trickle(String head, String trickle) throws IOException {
    Socket s = new Socket("127.0.0.1", server.address().getPort());
    OutputStream out = s.getOutputStream();
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    byte[] bytes = trickle.getBytes(StandardCharsets.US_ASCII);
    int[] next = {0};
    trickler.scheduleAtFixedRate(
        () -> {
          try {
            out.write(bytes[next[0]++ % bytes.length]);
            out.flush();
          } catch (IOException closed) {
            throw new IllegalStateException(closed); // cut: stop this task
          }
        },
        50,
        50,
        TimeUnit.MILLISECONDS);
    return s;
  }

  /** Nanoseconds until the server closes {@code s} (reading whatever it answers), within 5 s. */
  private static long untilClosed(Socket s, long from) throws IOException {
    s.setSoTimeout(5_000);
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // a 408/400 answer may come before the end of the stream
      }
    } catch (SocketTimeoutException open) {
      throw new AssertionError("still open after 5 s", open);
    } catch (SocketException reset) {
      // closed
    }
    return System.nanoTime() - from;
  }

  private double missed(String phase) {
    return metrics.get("nps.http.read.timeouts").tag("phase", phase).counter().count();
  }

  @Test
  void aHeaderTrickledByteByByteIsCutAtItsDeadline() throws Exception {
    long t0 = System.nanoTime();
    try (Socket s = trickle("GET /v1/ping HTTP/1.1\r\nHost: x\r\n", "X-Slow: aaaaaaaaaaaaa\r\n")) {
      long took = untilClosed(s, t0);
      assertThat(Duration.ofNanos(took)).isBetween(DEADLINE, Duration.ofSeconds(3));
    }
    assertThat(missed("header")).isEqualTo(1);
    assertThat(missed("body")).isZero();
    try (Socket fast = new Socket("127.0.0.1", server.address().getPort())) {
      fast.getOutputStream()
          .write(
              "GET /v1/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      fast.setSoTimeout(5_000);
      String answer = new String(fast.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void aConnectionThatSendsNothingIsCutFromItsAccept() throws Exception {
    long t0 = System.nanoTime();
    try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
      long took = untilClosed(s, t0);
      assertThat(Duration.ofNanos(took)).isBetween(DEADLINE, Duration.ofSeconds(3));
    }
    assertThat(missed("header")).isEqualTo(1);
  }

  @Test
  void aBodyTrickledByteByByteIsCutAtItsDeadline() throws Exception {
    String head =
        "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: 1000\r\n\r\n{\"a\":\"";
    long t0 = System.nanoTime();
    try (Socket s = trickle(head, "b")) {
      long took = untilClosed(s, t0);
      assertThat(Duration.ofNanos(took)).isBetween(DEADLINE, Duration.ofSeconds(3));
    }
    assertThat(missed("body")).isEqualTo(1);
    assertThat(missed("header")).isZero();
  }
}
