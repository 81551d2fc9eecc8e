package org.netpubsub.edge.mqtt;

import java.nio.charset.StandardCharsets;

/**
 * MQTT topic names and topic filters (MQTT 5.0 §4.7): validation and matching. A filter's {@code +}
 * matches one level, a trailing {@code #} the parent level and any number below it; topics starting
 * with {@code $} are not matched by a wildcard in the first level.
 */
public final class TopicFilters {
  /** UTF-8 strings in MQTT carry a 16-bit length. */
  public static final int MAX_BYTES = 65_535;

  private TopicFilters() {}

  /** Whether {@code filter} matches {@code topic}; both must be valid. */
  public static boolean matches(String filter, String topic) {
    if (topic.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
      return false;
    }
    int f = 0;
    int t = 0;
    int fn = filter.length();
    int tn = topic.length();
    while (true) {
      int fEnd = levelEnd(filter, f);
      String fLevel = filter.substring(f, fEnd);
      if (fLevel.equals("#")) {
        return true;
      }
      int tEnd = levelEnd(topic, t);
      if (!fLevel.equals("+") && !fLevel.equals(topic.substring(t, tEnd))) {
        return false;
      }
      boolean fLast = fEnd == fn;
      boolean tLast = tEnd == tn;
      if (fLast && tLast) {
        return true;
      }
      if (tLast) {
        // "a/#" also matches "a": the rest of the filter must be exactly "/#"
        return filter.substring(fEnd).equals("/#");
      }
      if (fLast) {
        return false;
      }
      f = fEnd + 1;
      t = tEnd + 1;
    }
  }

  private static int levelEnd(String s, int from) {
    int i = s.indexOf('/', from);
    return i < 0 ? s.length() : i;
  }

  /** Throws {@link IllegalArgumentException} naming the fault unless {@code filter} is valid. */
  public static String checkFilter(String filter) {
    checkString("topic filter", filter);
    String[] levels = filter.split("/", -1);
    for (int i = 0; i < levels.length; i++) {
      String l = levels[i];
      if (l.contains("#") && (!l.equals("#") || i != levels.length - 1)) {
        throw new IllegalArgumentException(
            "topic filter '" + filter + "': '#' must be a whole level and the last one");
      }
      if (l.contains("+") && !l.equals("+")) {
        throw new IllegalArgumentException(
            "topic filter '" + filter + "': '+' must be a whole level");
      }
    }
    return filter;
  }

  /** Throws {@link IllegalArgumentException} naming the fault unless {@code topic} is valid. */
  public static String checkTopic(String topic) {
    checkString("topic", topic);
    if (topic.indexOf('+') >= 0 || topic.indexOf('#') >= 0) {
      throw new IllegalArgumentException("topic '" + topic + "' must not contain '+' or '#'");
    }
    return topic;
  }

  /** Whether {@code topic} is a valid topic name (no exception). */
  public static boolean isTopic(String topic) {
    try {
      checkTopic(topic);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void checkString(String what, String s) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    if (s.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(what + " must not contain U+0000");
    }
    if (s.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      throw new IllegalArgumentException(what + " is over " + MAX_BYTES + " bytes of UTF-8");
    }
  }
}
