package org.netpubsub.edge.amqp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * AMQP topic exchanges (routing keys and binding keys are words separated by {@code .}; in a
 * binding {@code *} is one word and {@code #} zero or more) and their place in the coordinator's
 * topic-filter model, which is MQTT's (docs/edge.md):
 *
 * <ul>
 *   <li>a message to exchange {@code E} with routing key {@code w1.w2…} is coordinator topic {@code
 *       $amqp/E/w1/w2…} (a key of zero words, {@code ""}, is {@code $amqp/E});
 *   <li>a binding of {@code E} with key {@code p1.p2…} is the filter {@code $amqp/E/p1/p2…} with
 *       {@code *} → {@code +}; a {@code #} ends the filter ({@code a.#} → {@code a/#}, which MQTT
 *       also matches to {@code a}, as AMQP does).
 * </ul>
 *
 * Exchange names and words are percent-encoded where MQTT would read them ({@code % / + #} and
 * U+0000), so literal words never act as wildcards. The filter is exact for every binding whose
 * {@code #} (if any) is its last word; a {@code #} before other words ({@code a.#.b}) cuts the
 * filter there ({@code a/#}): a cover, never a miss — the receiving broker's own binding does the
 * exact match. The {@code $} keeps these topics apart from what MQTT clients publish (the MQTT
 * agent never forwards {@code $}-topics). Pure.
 */
public final class AmqpTopics {
  public static final String PREFIX = "$amqp";

  private AmqpTopics() {}

  /** The coordinator topic of a message to {@code exchange} with {@code routingKey}. */
  public static String topic(String exchange, String routingKey) {
    StringBuilder b = new StringBuilder(PREFIX).append('/').append(escape(exchange));
    for (String w : words(routingKey)) {
      b.append('/').append(escape(w));
    }
    return b.toString();
  }

  /** The coordinator filter of a binding of {@code exchange} with {@code bindingKey}. */
  public static String filter(String exchange, String bindingKey) {
    StringBuilder b = new StringBuilder(PREFIX).append('/').append(escape(exchange));
    for (String w : words(bindingKey)) {
      b.append('/');
      if (w.equals("#")) {
        return b.append('#').toString();
      }
      b.append(w.equals("*") ? "+" : escape(w));
    }
    return b.toString();
  }

  /** Whether the coordinator filter of {@code bindingKey} matches exactly what the binding does. */
  public static boolean exact(String bindingKey) {
    List<String> w = words(bindingKey);
    int hash = w.indexOf("#");
    return hash < 0 || hash == w.size() - 1;
  }

  /** AMQP topic-exchange matching, as RabbitMQ does it. */
  public static boolean matches(String bindingKey, String routingKey) {
    return matches(words(bindingKey), 0, words(routingKey), 0);
  }

  private static boolean matches(List<String> p, int i, List<String> r, int j) {
    if (i == p.size()) {
      return j == r.size();
    }
    String w = p.get(i);
    if (w.equals("#")) {
      for (int k = j; k <= r.size(); k++) {
        if (matches(p, i + 1, r, k)) {
          return true;
        }
      }
      return false;
    }
    return j < r.size() && (w.equals("*") || w.equals(r.get(j))) && matches(p, i + 1, r, j + 1);
  }

  /** The words of a key; the empty key has none (RabbitMQ: {@code #} matches it, {@code *} not). */
  public static List<String> words(String key) {
    return key.isEmpty() ? List.of() : new ArrayList<>(Arrays.asList(key.split("\\.", -1)));
  }

  /** Percent-encodes what MQTT reads in a level: {@code % / + #} and U+0000. */
  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (x & 0xff);
      if (c == '%' || c == '/' || c == '+' || c == '#' || c == 0) {
        b.append('%').append(String.format("%02X", (int) c));
      } else {
        b.append(c);
      }
    }
    return new String(b.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }
}
