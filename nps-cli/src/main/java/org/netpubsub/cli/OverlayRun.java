package org.netpubsub.cli;

import java.io.Closeable;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.content.Durations;
import org.netpubsub.edge.overlay.Zk;
import org.netpubsub.edge.overlay.ZkAuth;

/** What the overlay commands share: run until SIGTERM, printing counters now and then. */
final class OverlayRun {
  private OverlayRun() {}

  /**
   * A client connected within {@code wait}, or a one-line failure: while it waits, Curator's own
   * lines about each failed attempt (the command says it in one line) are held back.
   */
  static CuratorFramework zookeeper(String connect, Duration session, Duration wait, ZkAuth auth)
      throws InterruptedException {
    try (var quiet = Logging.quieter("org.apache.curator")) {
      return Zk.connected(connect, session, wait, auth);
    } catch (java.io.IOException x) {
      throw CommandFailure.io(x);
    }
  }

  static void untilStopped(
      Closeable running,
      boolean exitAfterStart,
      Duration interval,
      Runnable printStats,
      String threadName)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              printStats.run();
              try {
                running.close();
              } catch (java.io.IOException e) {
                // exiting anyway
              }
              stopped.countDown();
            },
            threadName);
    if (exitAfterStart) {
      hook.run();
      return;
    }
    Runtime.getRuntime().addShutdownHook(hook);
    if (interval.isZero()) {
      stopped.await();
    } else {
      while (!stopped.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
        printStats.run();
      }
    }
  }

  static void printStats(
      PrintWriter out, boolean json, String kind, String name, Supplier<Map<String, Long>> c) {
    Map<String, Long> counters = c.get();
    if (json) {
      Map<String, Object> o = new java.util.LinkedHashMap<>();
      o.put("kind", "stats");
      o.put(kind, name);
      o.put("counters", counters);
      JsonOutput.printLine(out, o);
    } else {
      out.println(kind + " " + name + ": " + counters);
      out.flush();
    }
  }

  static Duration interval(String text) {
    return text.strip().equals("0") ? Duration.ZERO : Durations.positive(text, "--status-interval");
  }
}
