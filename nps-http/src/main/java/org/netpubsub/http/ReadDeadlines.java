package org.netpubsub.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Deadlines for reading a request (issue 27): a connection whose request header is not complete
 * within {@code header} of its accept (the first request, a TLS handshake included) or of the first
 * byte of a later request, or whose body the server has waited for {@code body} for, is closed and
 * counted in {@code nps_http_read_timeouts_total{phase}}. The idle timeout alone let a client that
 * sends one byte every few seconds hold a connection forever, and a body read holds a pool thread.
 * Jetty 12 has no such deadline ({@code HttpConfiguration.setMinRequestDataRate} is stored but not
 * used by 12.1).
 *
 * <p>One sweep over the open connections every {@link #period} on the connector's scheduler reads
 * each connection's parser state and request count ({@link ReadWatch}); a request costs nothing
 * here, a connection one map entry, and no connection has a thread or a timer of its own. A
 * deadline is met to within one period (a quarter of the shorter deadline, at most 1 s).
 */
final class ReadDeadlines extends AbstractLifeCycle implements Connection.Listener {
  private final long headerNanos;
  private final long bodyNanos;
  private final Duration period;
  private final Scheduler scheduler;
  private final Counter headerMissed;
  private final Counter bodyMissed;
  private final Map<HttpConnection, ReadWatch> open = new ConcurrentHashMap<>();
  private volatile Scheduler.Task next;

  ReadDeadlines(Duration header, Duration body, Scheduler scheduler, MeterRegistry registry) {
    if (header.isNegative() || header.isZero() || body.isNegative() || body.isZero()) {
      throw new IllegalArgumentException(
          "read deadlines must be positive: " + header + ", " + body);
    }
    this.headerNanos = header.toNanos();
    this.bodyNanos = body.toNanos();
    this.period = period(header, body);
    this.scheduler = scheduler;
    this.headerMissed = counter(registry, "header");
    this.bodyMissed = counter(registry, "body");
  }

  /** A quarter of the shorter deadline, between 10 ms and 1 s. */
  static Duration period(Duration header, Duration body) {
    long ms = Math.min(header.toMillis(), body.toMillis()) / 4;
    return Duration.ofMillis(Math.clamp(ms, 10, 1000));
  }

  private static Counter counter(MeterRegistry registry, String phase) {
    return Counter.builder("nps.http.read.timeouts")
        .description("connections closed because a request's header or body came too slowly")
        .tag("phase", phase)
        .register(registry);
  }

  @Override
  public void onOpened(Connection c) {
    if (c instanceof HttpConnection h) {
      open.put(h, new ReadWatch(System.nanoTime()));
    }
  }

  @Override
  public void onClosed(Connection c) {
    if (c instanceof HttpConnection h) {
      open.remove(h);
    }
  }

  @Override
  protected void doStart() {
    schedule();
  }

  @Override
  protected void doStop() {
    Scheduler.Task t = next;
    if (t != null) {
      t.cancel();
    }
    open.clear();
  }

  private void schedule() {
    next = scheduler.schedule(this::sweep, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void sweep() {
    try {
      long now = System.nanoTime();
      open.forEach(
          (h, watch) -> {
            ReadWatch.Missed m =
                watch.sample(now, h.getMessagesIn(), seen(h), headerNanos, bodyNanos);
            if (m != ReadWatch.Missed.NONE) {
              open.remove(h);
              (m == ReadWatch.Missed.HEADER ? headerMissed : bodyMissed).increment();
              String what = m == ReadWatch.Missed.HEADER ? "header" : "body";
              h.getEndPoint().close(new TimeoutException("request " + what + " too slow"));
            }
          });
    } finally {
      if (isRunning()) {
        schedule();
      }
    }
  }

  /** What the connection is doing, from its parser's state (a volatile field) and fill interest. */
  private static ReadWatch.Seen seen(HttpConnection h) {
    HttpParser p = h.getParser();
    HttpParser.State s = p.getState();
    if (s == HttpParser.State.START) {
      return ReadWatch.Seen.IDLE;
    }
    if (p.inHeaderState()) {
      return ReadWatch.Seen.HEADER;
    }
    if (p.inContentState() && h.isFillInterested()) {
      return ReadWatch.Seen.BODY_WAITING;
    }
    return ReadWatch.Seen.SERVING;
  }

  /** Connections watched now (for tests). */
  int watched() {
    return open.size();
  }
}
