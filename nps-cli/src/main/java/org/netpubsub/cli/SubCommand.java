package org.netpubsub.cli;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.netpubsub.client.ControllerClient;
import org.netpubsub.client.ControllerException;
import org.netpubsub.client.Delivery;
import org.netpubsub.client.Subscriber;
import org.netpubsub.client.SubscriberStats;
import org.netpubsub.content.Durations;
import org.netpubsub.content.event.EventText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nps sub}: subscribes a filter and prints one JSON line per delivered event until
 * SIGTERM/Ctrl-C, {@code --count} deliveries or {@code --duration}; then unsubscribes.
 */
@Command(
    name = "sub",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Subscribes FILTER at the controller and prints one JSON line per delivered event"
          + " ({\"kind\":\"delivery\",\"attributes\":…,\"publisher\",\"sequence\",\"latency_us\"})."
          + " The first line, {\"kind\":\"subscribed\",\"id\",\"port\",\"response_ms\"}, goes to"
          + " stderr (stdout with --json) once the subscription is live. Stops on SIGTERM/Ctrl-C,"
          + " after --count deliveries or after --duration, and unsubscribes."
    })
final class SubCommand implements Callable<Integer> {
  private static final Duration PROGRESS = Duration.ofMillis(250);

  @Mixin JsonOutput json;

  @Mixin ServerOptions server;

  @Spec CommandSpec spec;

  @Mixin ClientOptions client;

  @Option(
      names = "--port",
      defaultValue = "0",
      paramLabel = "PORT",
      description = "UDP port to receive on (default 0: any free port; printed when subscribed).")
  int port;

  @Option(
      names = {"-q", "--quiet"},
      description =
          "Print no delivery lines, only their count when it stops ({\"kind\":\"count\","
              + "\"delivered\":N} with --json).")
  boolean quiet;

  @Option(names = "--count", paramLabel = "N", description = "Stop after N deliveries.")
  Long count;

  @Option(
      names = "--duration",
      paramLabel = "D",
      description = "Stop after this long: 10s, 500ms, 2m.")
  String duration;

  @Option(
      names = "--summary",
      description =
          "Print no delivery lines: keep each delivery's sequence and latency, record the latency"
              + " in an HdrHistogram (µs), print {\"kind\":\"progress\",\"received\","
              + "\"delivered\"} every 250 ms and at the end {\"kind\":\"latency\",\"sequences\","
              + "\"histogram\" (compressed, base64),\"max_by_tenth\"}: a benchmark's view.")
  boolean summary;

  @Option(
      names = "--warmup",
      defaultValue = "0",
      paramLabel = "N",
      description = "With --summary: events with sequence 1…N are kept but not in the histogram.")
  long warmup;

  @Option(
      names = "--jit-warmup",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Before subscribing, run the receive path (decode, the exact filter) on N synthetic"
              + " events so the JIT has compiled it, then collect the start-up garbage; for a"
              + " benchmark's subscriber (20000 reach C2; default 0: none).")
  int jitWarmup;

  @Option(
      names = "--stats",
      description =
          "At exit print {\"kind\":\"stats\",\"received\",\"delivered\",\"false_positives\","
              + "\"malformed\"}.")
  boolean stats;

  @Option(
      names = "--report-interval",
      defaultValue = "5s",
      paramLabel = "D",
      description =
          "Report received and false positives to the controller this often (POST"
              + " /v1/subscriptions/{id}/stats; default 5s; 0: never), and once when it stops.")
  String reportInterval;

  @Parameters(
      index = "0",
      paramLabel = "FILTER",
      description = "The subscription, e.g. 'price > 500'.")
  String filter;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be in 0..65535");
    }
    if (count != null && count < 1) {
      throw new IllegalArgumentException("--count must be at least 1");
    }
    if (jitWarmup < 0) {
      throw new IllegalArgumentException("--jit-warmup must be at least 0");
    }
    if (warmup != 0 && !summary) {
      throw new IllegalArgumentException("--warmup needs --summary");
    }
    LatencySummary latency = summary ? new LatencySummary(warmup) : null;
    Duration limit = duration == null ? null : Durations.positive(duration, "--duration");
    Duration reportEvery =
        reportInterval.equals("0")
            ? Duration.ZERO
            : Durations.positive(reportInterval, "--report-interval");
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    CountDownLatch done = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(1);
    AtomicLong printed = new AtomicLong();
    warmUp();
    try (ControllerClient controller = client.connect();
        DeliveryPrinter printer = new DeliveryPrinter(out, SubCommand::delivery)) {
      Subscriber sub;
      try {
        sub =
            Subscriber.builder(controller)
                .host(client.hostAddress())
                .filter(filter)
                .port(port)
                .statsInterval(reportEvery)
                .warmUp(jitWarmup)
                .onDelivery(d -> count(d, printer, latency, printed, done))
                .build();
      } catch (ControllerException e) {
        return ClientOptions.fail(e, err, json.enabled());
      }
      if (jitWarmup > 0) {
        // the start-up's and the warm-up's garbage, collected now rather than in a young
        // collection while events arrive (the first one copies every start-up survivor)
        System.gc();
      }
      // before the subscribed line: a SIGTERM right after it still unsubscribes and prints stats
      AtomicInteger code = new AtomicInteger();
      Thread hook = ClientOptions.onSignal(done::countDown, finished, code);
      Map<String, Object> subscribed = new LinkedHashMap<>();
      subscribed.put("kind", "subscribed");
      subscribed.put("id", sub.subscription().id());
      subscribed.put("port", sub.port());
      subscribed.put("response_ms", sub.subscription().responseMs());
      JsonOutput.printLine(json.enabled() ? out : err, subscribed);
      try {
        await(done, limit, latency == null ? null : () -> progress(out, sub, latency));
      } finally {
        try {
          sub.close();
        } catch (ControllerException e) {
          code.set(ClientOptions.fail(e, err, json.enabled()));
        }
        printer.close(); // the receive thread has stopped: every delivery line before the stats
        if (latency != null) {
          progress(out, sub, latency);
          JsonOutput.printLine(out, latency.result());
        }
        if (stats) {
          JsonOutput.printLine(out, stats(sub.stats(), printed.get()));
        }
        if (quiet) {
          printCount(out, printed.get());
        }
        finished.countDown();
        ClientOptions.removeHook(hook);
      }
      return code.get();
    }
  }

  /** Until {@code done} or {@code limit}; {@code tick} (when given) every {@link #PROGRESS}. */
  private static void await(CountDownLatch done, Duration limit, Runnable tick)
      throws InterruptedException {
    long start = System.nanoTime();
    long total = limit == null ? Long.MAX_VALUE : limit.toNanos();
    while (true) {
      long left = total - (System.nanoTime() - start); // differences only: nanoTime may wrap
      if (left <= 0) {
        return;
      }
      if (done.await(tick == null ? left : Math.min(left, PROGRESS.toNanos()), NANOSECONDS)) {
        return;
      }
      if (tick != null) {
        tick.run();
      }
    }
  }

  private static void progress(PrintWriter out, Subscriber sub, LatencySummary latency) {
    JsonOutput.printLine(
        out,
        Map.of(
            "kind", "progress", "received", sub.stats().received(), "delivered", latency.count()));
  }

  /**
   * On the receive thread: counts and queues the line, or records it in the summary (printing waits
   * for nothing here).
   */
  private void count(
      Delivery d,
      DeliveryPrinter printer,
      LatencySummary latency,
      AtomicLong printed,
      CountDownLatch done) {
    long n = printed.incrementAndGet();
    if (count != null && n > count) {
      printed.decrementAndGet(); // arrived after --count, before the unsubscription
      return;
    }
    if (latency != null) {
      latency.record(d.event().sequence(), d.latencyNanos());
    } else if (!quiet) {
      printer.print(d);
    }
    if (count != null && n == count) {
      done.countDown();
    }
  }

  private void printCount(PrintWriter out, long delivered) {
    if (json.enabled()) {
      JsonOutput.printLine(out, Map.of("kind", "count", "delivered", delivered));
    } else {
      out.println(delivered + " delivered");
      out.flush();
    }
  }

  /**
   * Loads the JSON writer's classes before the first event: otherwise the first deliveries wait
   * tens of milliseconds behind class loading and their latency says so.
   */
  private static void warmUp() {
    Map<String, Object> sample = new LinkedHashMap<>();
    sample.put("kind", "delivery");
    sample.put("attributes", Map.of("a", 1L, "b", "x"));
    sample.put("publisher", BigInteger.TWO.pow(63));
    sample.put("latency_us", 1.5);
    JsonOutput.printLine(new PrintWriter(java.io.Writer.nullWriter()), sample);
  }

  /** One delivery line: attributes, payload (base64, when not empty), header, latency. */
  static Map<String, Object> delivery(Delivery d) {
    Map<String, Object> event = EventText.toJsonObject(d.event());
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "delivery");
    m.put("attributes", event.get("attributes"));
    if (event.containsKey("payload")) {
      m.put("payload", event.get("payload"));
    }
    m.put("publisher", unsigned(d.event().publisherId()));
    m.put("sequence", unsigned(d.event().sequence()));
    m.put("latency_us", Math.round(d.latencyNanos() / 100.0) / 10.0);
    return m;
  }

  /** The stats line; delivered counts the printed lines (not events after --count). */
  static Map<String, Object> stats(SubscriberStats s, long delivered) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "stats");
    m.put("received", s.received());
    m.put("delivered", delivered);
    m.put("false_positives", s.falsePositives());
    m.put("malformed", s.malformed());
    return m;
  }

  private static Number unsigned(long bits) {
    return bits >= 0 ? (Number) bits : new BigInteger(Long.toUnsignedString(bits));
  }
}
