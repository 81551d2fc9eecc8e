package org.netpubsub.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One access-log line per request, written by one thread of its own: a request only queues its
 * line, so a slow log backend never slows requests (slf4j-jdk14 walks the caller's stack for every
 * record, Jetty's stack is deep). A line that finds the queue full is dropped and counted in {@code
 * nps_http_access_log_dropped_total}.
 */
final class AccessLog implements AutoCloseable {
  private static final Logger ACCESS = LoggerFactory.getLogger("org.netpubsub.http.access");
  private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(16_384);
  private final Counter dropped;
  private final Thread writer;

  AccessLog(String server, MeterRegistry registry) {
    this.dropped =
        Counter.builder("nps.http.access.log.dropped")
            .description("access-log lines dropped because the log could not keep up")
            .register(registry);
    this.writer = Thread.ofPlatform().daemon().name(server + "-access-log").start(this::drain);
  }

  void log(String line) {
    if (ACCESS.isInfoEnabled() && !lines.offer(line)) {
      dropped.increment();
    }
  }

  private void drain() {
    try {
      while (true) {
        ACCESS.info(lines.take());
      }
    } catch (InterruptedException e) {
      // closed: the lines still queued are dropped with the server
    }
  }

  @Override
  public void close() {
    writer.interrupt();
  }
}
