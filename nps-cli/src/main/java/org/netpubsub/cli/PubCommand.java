package org.netpubsub.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netpubsub.client.ControllerClient;
import org.netpubsub.client.ControllerException;
import org.netpubsub.client.PubSubConfig;
import org.netpubsub.client.Publisher;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventText;
import org.netpubsub.content.schema.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nps pub}: advertises, sends events (one UDP datagram each to its content address), paced
 * by {@code --rate}, then unadvertises and prints a summary.
 */
@Command(
    name = "pub",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Advertises (--advertise, default: the whole event space), then publishes the event given"
          + " as NAME=VALUE words (--count times) or each JSON line of --from FILE, each as one UDP"
          + " datagram to its content address; unadvertises and prints"
          + " {\"kind\":\"published\",\"events\",\"seconds\",\"rate\",\"close_seconds\","
          + "\"advertisement\"} (seconds and rate: sending, from the first event to the last;"
          + " close_seconds: the linger and unadvertisement after it). Once the"
          + " advertisement is live it prints {\"kind\":\"advertised\",\"id\",\"response_ms\"},"
          + " and when it follows a new index version (an online layout switch)"
          + " {\"kind\":\"index\",\"version\",\"event_port\",\"published\"} (events published"
          + " before it; to stdout with --json, else stderr)."
    })
final class PubCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Mixin ClientOptions client;

  @Option(
      names = "--advertise",
      defaultValue = "true",
      paramLabel = "FILTER",
      description = "What this publisher will send (default: ${DEFAULT-VALUE}, everything).")
  String advertise;

  @Option(
      names = "--rate",
      paramLabel = "R",
      description = "Events per second, paced without drift (default: as fast as possible).")
  Double rate;

  @Option(
      names = "--count",
      paramLabel = "N",
      description = "Publish the NAME=VALUE event N times (default 1).")
  Long count;

  @Option(
      names = "--from",
      paramLabel = "FILE",
      description =
          "Publish each JSON line of FILE ({\"attributes\":{…}}; '-' reads stdin); lines of"
              + " another kind, such as the filters of `nps workload gen`, are skipped.")
  String from;

  @Option(
      names = "--to",
      paramLabel = "[IPV6]:PORT",
      description =
          "Send every event to this unicast address instead of its content address (testing"
              + " without switches).")
  String to;

  @Option(
      names = "--hops",
      defaultValue = "16",
      paramLabel = "N",
      description = "Multicast hop limit (default: ${DEFAULT-VALUE}).")
  int hops;

  @Option(
      names = {"-m", "--message"},
      paramLabel = "TEXT",
      description = "The NAME=VALUE event's payload, as UTF-8 text (as mosquitto_pub -m).")
  String message;

  @Option(
      names = "--index-refresh",
      defaultValue = "1s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "How often the controller's index is polled, so that an online layout switch is"
              + " followed (default: ${DEFAULT-VALUE}; 0s: never).")
  java.time.Duration indexRefresh;

  @Option(
      names = {"-q", "--quiet"},
      description = "Print errors only: no advertised line, no summary.")
  boolean quiet;

  @Parameters(arity = "0..*", paramLabel = "NAME=VALUE", description = "The event's values.")
  List<String> assignments;

  private volatile boolean stop;

  @Override
  public Integer call() throws IOException {
    boolean words = assignments != null && !assignments.isEmpty();
    if (words == (from != null)) {
      throw new IllegalArgumentException("give the event as NAME=VALUE words or --from FILE");
    }
    if (from != null && message != null) {
      throw new IllegalArgumentException(
          "--message is the payload of a NAME=VALUE event; not with --from");
    }
    if (from != null && count != null) {
      throw new IllegalArgumentException("--count repeats a NAME=VALUE event; not with --from");
    }
    long n = count == null ? 1 : count;
    if (n < 1) {
      throw new IllegalArgumentException("--count must be at least 1");
    }
    if (rate != null && !(rate > 0 && rate <= 1e9)) {
      throw new IllegalArgumentException("--rate must be positive");
    }
    InetSocketAddress destination =
        to == null ? null : ClientOptions.parseSocketAddress(to, "--to");
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (ControllerClient controller = client.connect()) {
      PubSubConfig config;
      try {
        config = controller.pubsubConfig();
      } catch (ControllerException e) {
        return ClientOptions.fail(e, err, json.enabled());
      }
      // Bad input is found before anything is advertised.
      EventSource source =
          words
              ? EventSource.repeat(
                  withPayload(EventText.fromAssignments(config.schema(), assignments)), n)
              : EventSource.lines(config.schema(), from, open(from));
      try (source) {
        Publisher.Builder b =
            Publisher.builder(controller)
                .host(client.hostAddress())
                .advertisement(advertise)
                .config(config)
                .destination(destination)
                .multicastHops(hops)
                .indexRefresh(indexRefresh);
        Publisher pub;
        try {
          pub = b.build();
        } catch (ControllerException e) {
          return ClientOptions.fail(e, err, json.enabled());
        }
        Map<String, Object> advertised = new LinkedHashMap<>();
        advertised.put("kind", "advertised");
        advertised.put("id", pub.advertisement().id());
        advertised.put("response_ms", pub.advertisement().responseMs());
        if (!quiet) {
          JsonOutput.printLine(json.enabled() ? out : err, advertised);
        }
        // An online layout switch: say from which event on the new index's addresses are used.
        Runnable stopListening =
            controller.onIndexChange(
                c -> {
                  if (!quiet) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("kind", "index");
                    m.put("version", controller.indexVersion());
                    m.put("event_port", c.eventPort());
                    m.put("published", pub.published());
                    JsonOutput.printLine(json.enabled() ? out : err, m);
                  }
                });
        try {
          return publishAll(pub, source, out, err);
        } finally {
          stopListening.run();
        }
      }
    }
  }

  private int publishAll(Publisher pub, EventSource source, PrintWriter out, PrintWriter err)
      throws IOException {
    CountDownLatch finished = new CountDownLatch(1);
    AtomicInteger code = new AtomicInteger();
    Thread hook = ClientOptions.onSignal(() -> stop = true, finished, code);
    long start = System.nanoTime();
    long end = start;
    long sent = 0;
    try {
      // The clock starts at the first event: from stdin it may come long after the advertisement,
      // and due times from then would send everything up to it in one burst.
      Event first = source.next();
      start = System.nanoTime();
      end = start;
      Progress progress = new Progress(err, json.enabled(), start);
      for (Event e = first; e != null && !stop; e = source.next()) {
        if (rate != null) {
          // Due times from the start, not from the previous send: no drift.
          long due = start + (long) (sent * 1e9 / rate);
          for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait);
          }
        }
        pub.publish(e);
        sent++;
        progress.maybePrint(sent);
      }
      end = System.nanoTime();
    } catch (UncheckedIOException e) {
      CommandFailure.print(err, json.enabled(), "io_error", e.getMessage(), null);
      code.set(ClientOptions.EXIT_CONTROLLER);
    } finally {
      if (end == start) { // stopped by an error or a signal: up to now
        end = System.nanoTime();
      }
      try {
        pub.close();
      } catch (ControllerException e) {
        code.set(ClientOptions.fail(e, err, json.enabled()));
      }
      // The rate is that of sending: close()'s linger and unadvertisement (a controller round
      // trip that takes seconds on a loaded machine) are reported apart, not averaged into it.
      double seconds = (end - start) / 1e9;
      double closing = (System.nanoTime() - end) / 1e9;
      if (!quiet) {
        summary(out, sent, seconds, closing, pub.advertisement().id());
      }
      finished.countDown();
      ClientOptions.removeHook(hook);
    }
    return code.get();
  }

  private Event withPayload(Event e) {
    return message == null
        ? e
        : e.toBuilder().payload(message.getBytes(StandardCharsets.UTF_8)).build();
  }

  private void summary(
      PrintWriter out, long sent, double seconds, double closing, String advertisement) {
    double perSecond = seconds > 0 ? sent / seconds : 0;
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", "published");
      m.put("events", sent);
      m.put("seconds", Math.round(seconds * 1e6) / 1e6);
      m.put("rate", Math.round(perSecond * 10) / 10.0);
      m.put("close_seconds", Math.round(closing * 1e6) / 1e6);
      m.put("advertisement", advertisement);
      JsonOutput.printLine(out, m);
    } else {
      out.printf(
          "published %d events in %.3f s (%.1f/s), advertisement %s%n",
          sent, seconds, perSecond, advertisement);
      out.flush();
    }
  }

  private static BufferedReader open(String file) throws IOException {
    if (file.equals("-")) {
      return new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    }
    try {
      return Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InvalidInputException("cannot read " + file + ": no such file");
    } catch (IOException e) {
      throw new InvalidInputException("cannot read " + file + ": " + e.getMessage());
    }
  }

  /** Progress on stderr, once a second, for runs longer than that. */
  private static final class Progress {
    private final PrintWriter err;
    private final boolean json;
    private final long start;
    private long last;

    Progress(PrintWriter err, boolean json, long start) {
      this.err = err;
      this.json = json;
      this.start = start;
      this.last = start;
    }

    void maybePrint(long sent) {
      long now = System.nanoTime();
      if (now - last < 1_000_000_000L) {
        return;
      }
      last = now;
      double seconds = (now - start) / 1e9;
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "progress");
        m.put("events", sent);
        m.put("seconds", Math.round(seconds * 1000) / 1000.0);
        JsonOutput.printLine(err, m);
      } else {
        err.printf("published %d events in %.1f s%n", sent, seconds);
        err.flush();
      }
    }
  }

  private static final Pattern KIND = Pattern.compile("^\\s*\\{\\s*\"kind\"\\s*:\\s*\"([^\"]*)\"");

  /**
   * Whether a line is a JSON object of another kind than "event" (the subscriptions that {@code nps
   * workload gen} writes before the events): skipped, so a workload file can be published as it is.
   */
  static boolean isOtherKind(String line) {
    Matcher m = KIND.matcher(line);
    return m.lookingAt() && !m.group(1).equals("event");
  }

  /** The events to publish: one event repeated, or the lines of a file, parsed as they are read. */
  interface EventSource extends AutoCloseable {
    /** The next event, or null at the end. */
    Event next() throws IOException;

    @Override
    default void close() throws IOException {}

    static EventSource repeat(Event event, long times) {
      long[] left = {times};
      return () -> left[0]-- > 0 ? event : null;
    }

    static EventSource lines(Schema schema, String name, BufferedReader reader) {
      return new EventSource() {
        private int line;

        @Override
        public Event next() throws IOException {
          for (String text = reader.readLine(); text != null; text = reader.readLine()) {
            line++;
            if (text.isBlank() || isOtherKind(text)) {
              continue;
            }
            try {
              return EventText.fromJson(schema, text);
            } catch (InvalidInputException e) {
              throw new InvalidInputException(name + " line " + line + ": " + e.reason());
            } catch (IllegalArgumentException e) {
              throw new InvalidInputException(name + " line " + line + ": " + e.getMessage());
            }
          }
          return null;
        }

        @Override
        public void close() throws IOException {
          reader.close();
        }
      };
    }
  }
}
