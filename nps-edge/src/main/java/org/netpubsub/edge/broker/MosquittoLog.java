package org.netpubsub.edge.broker;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the log lines Mosquitto 2.x publishes with {@code log_dest topic} (docs/edge.md): {@code
 * $SYS/broker/log/M/subscribe} "{@code [TS: ]CLIENT QOS FILTER}", {@code .../M/unsubscribe} "{@code
 * [TS: ]CLIENT FILTER}", and the notices {@code .../N} for connects ("New client connected from …
 * as CLIENT (p5, c1, k60…).") and disconnects. Pure; anything else is {@link Optional#empty()}.
 * Client ids containing spaces are not supported (the log does not delimit them).
 */
public final class MosquittoLog {
  /** What the agent subscribes to. */
  public static final String LOG_FILTER = "$SYS/broker/log/#";

  public static final String SUBSCRIBE_TOPIC = "$SYS/broker/log/M/subscribe";
  public static final String UNSUBSCRIBE_TOPIC = "$SYS/broker/log/M/unsubscribe";
  public static final String NOTICE_TOPIC = "$SYS/broker/log/N";

  private static final Pattern TIMESTAMP = Pattern.compile("^[0-9]+: ");
  private static final Pattern SUBSCRIBE = Pattern.compile("^(\\S+) ([0-9]+) (.+)$");
  private static final Pattern UNSUBSCRIBE = Pattern.compile("^(\\S+) (.+)$");
  private static final Pattern CONNECTED =
      Pattern.compile("^New client connected from \\S+ as (\\S+) \\(p[0-9]+, c([01]),.*$");
  // every way mosquitto 2.0 words the end of a connection (loop.c, handle_disconnect.c)
  private static final Pattern DISCONNECTED =
      Pattern.compile(
          "^(?:Client (\\S+) (?:disconnected|closed its connection|has exceeded timeout)"
              + "|Socket error on client (\\S+), disconnecting|Client (\\S+) already connected,"
              + " closing old connection)\\b.*$");

  private MosquittoLog() {}

  /** The event a log message on {@code topic} carries, if it is one the agent tracks. */
  public static Optional<BrokerEvent> parse(String topic, String line) {
    String text = TIMESTAMP.matcher(line).replaceFirst("").strip();
    switch (topic) {
      case SUBSCRIBE_TOPIC -> {
        Matcher m = SUBSCRIBE.matcher(text);
        return m.matches()
            ? Optional.of(new BrokerEvent.Subscribed(m.group(1), m.group(3)))
            : Optional.empty();
      }
      case UNSUBSCRIBE_TOPIC -> {
        Matcher m = UNSUBSCRIBE.matcher(text);
        return m.matches()
            ? Optional.of(new BrokerEvent.Unsubscribed(m.group(1), m.group(2)))
            : Optional.empty();
      }
      case NOTICE_TOPIC -> {
        Matcher c = CONNECTED.matcher(text);
        if (c.matches()) {
          return Optional.of(new BrokerEvent.Connected(c.group(1), c.group(2).equals("1")));
        }
        Matcher d = DISCONNECTED.matcher(text);
        if (d.matches()) {
          String client =
              d.group(1) != null ? d.group(1) : d.group(2) != null ? d.group(2) : d.group(3);
          return Optional.of(new BrokerEvent.Disconnected(client));
        }
        return Optional.empty();
      }
      default -> {
        return Optional.empty();
      }
    }
  }
}
