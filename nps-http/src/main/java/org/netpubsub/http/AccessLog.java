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
 * One access-log line per request, written by one thread of its own: a request only queues its
 * line, so a slow log backend never slows requests. The queue takes no lock: with a lock (an
 * ArrayBlockingQueue), 200 request threads on a loaded 2-CPU machine formed a convoy behind it and
 * waited up to 2 s each (docs/results/rest-layer.md). A line that finds {@link #CAPACITY} queued is
 * dropped and counted in {@code nps_http_access_log_dropped_total}.
 */
final class AccessLog implements AutoCloseable {
  static final int CAPACITY = 16_384;
  private static final Logger ACCESS = LoggerFactory.getLogger("org.netpubsub.http.access");
  private final Queue<String> lines = new ConcurrentLinkedQueue<>();
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

  void log(String line) {
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
    while (!Thread.currentThread().isInterrupted()) {
      String line = lines.poll();
      if (line != null) {
        queued.decrementAndGet();
        sink.accept(line);
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
}
