package org.netpubsub.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One access-log line per request, written by one thread of its own: a request only queues what
 * happened (the line is formatted on that thread too), so a slow log backend never slows requests.
 * A writer that has just written lines waits {@link #LINGER_NANOS} for more before it sleeps until
 * woken: under load it writes in batches instead of being woken once per request (a futex call and
 * a context switch each, docs/results/rest-layer.md), and a line is written at most that late. The
 * queue takes no lock: with a lock (an ArrayBlockingQueue), 200 request threads on a loaded 2-CPU
 * machine formed a convoy behind it and waited up to 2 s each (docs/results/rest-layer.md). A line
 * that finds {@link #CAPACITY} queued is dropped and counted in {@code
 * nps_http_access_log_dropped_total}.
 */
final class AccessLog implements AutoCloseable {
  static final int CAPACITY = 16_384;
  static final long LINGER_NANOS = 10_000_000;
  private static final Logger ACCESS = LoggerFactory.getLogger("org.netpubsub.http.access");
  private final Queue<Object> lines = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final int capacity;
  private final BooleanSupplier enabled;
  private final Consumer<String> sink;
  private final Counter dropped;
  private final Thread writer;
  private volatile boolean parked;

  AccessLog(String server, MeterRegistry registry) {
    this(server, registry, CAPACITY, ACCESS::isInfoEnabled, ACCESS::info);
  }

  /** For tests: {@code sink} takes each line on the writer thread while {@code enabled}. */
  AccessLog(
      String server,
      MeterRegistry registry,
      int capacity,
      BooleanSupplier enabled,
      Consumer<String> sink) {
    this.capacity = capacity;
    this.enabled = enabled;
    this.sink = sink;
    this.dropped =
        Counter.builder("nps.http.access.log.dropped")
            .description("access-log lines dropped because the log could not keep up")
            .register(registry);
    this.writer = Thread.ofPlatform().daemon().name(server + "-access-log").start(this::drain);
  }

  /** One request: its server, client address, method, path, status and time to answer. */
  void log(String server, String remote, String method, String path, int status, long nanos) {
    log(new Line(server, remote, method, path, status, nanos));
  }

  /** A line queued as it is: a String, or anything whose {@code toString} formats it. */
  void log(Object line) {
    if (!enabled.getAsBoolean()) {
      return;
    }
    if (queued.incrementAndGet() > capacity) {
      queued.decrementAndGet();
      dropped.increment();
      return;
    }
    lines.offer(line);
    if (parked) { // only a writer that found the queue empty needs waking
      LockSupport.unpark(writer);
    }
  }

  private void drain() {
    boolean wrote = false;
    while (!Thread.currentThread().isInterrupted()) {
      Object line = lines.poll();
      if (line != null) {
        queued.decrementAndGet();
        sink.accept(line.toString());
        wrote = true;
        continue;
      }
      if (wrote) { // more are likely: gather them for a while, nobody wakes us meanwhile
        wrote = false;
        LockSupport.parkNanos(this, LINGER_NANOS);
        continue;
      }
      // set before looking again: a line offered after this look sees parked and unparks us
      parked = true;
      if (lines.isEmpty()) {
        LockSupport.park(this);
      }
      parked = false;
    }
    // closed: the lines still queued are dropped with the server
  }

  @Override
  public void close() {
    writer.interrupt();
  }

  private record Line(
      String server, String remote, String method, String path, int status, long nanos) {
    @Override
    public String toString() {
      return server
          + " "
          + remote
          + " \""
          + method
          + " "
          + path
          + "\" "
          + status
          + " "
          + Math.round(nanos / 100_000.0) / 10.0
          + " ms";
    }
  }
}
