package org.netpubsub.content.schema;

/**
 * MQTT topic names and topic filters (MQTT 3.1.1 §4.7) for {@code type: topic} attributes
 * (docs/content-model.md, "Topics"). A name is 1 to {@code levels} non-empty levels separated by
 * {@code /}, without {@code +} or {@code #}. A filter's level is a name's level, {@code +} (any one
 * level) or, as its last level only, {@code #} (any number of levels, none included). Empty levels
 * are refused: a network index codes levels, and an empty one is more likely a typo.
 */
public final class Topics {
  private Topics() {}

  /** Why {@code name} is not a topic name of at most {@code levels} levels, or null. */
  public static String nameProblem(String name, int levels) {
    String[] parts = name.split("/", -1);
    if (parts.length > levels) {
      return "topic '" + name + "' has " + parts.length + " levels, at most " + levels;
    }
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].isEmpty()) {
        return "topic '" + name + "' has an empty level " + (i + 1);
      }
      if (parts[i].indexOf('+') >= 0 || parts[i].indexOf('#') >= 0) {
        return "topic '" + name + "' has a wildcard (+ or #) in level " + (i + 1);
      }
    }
    return null;
  }

  /**
   * Why {@code filter} is not a topic filter for names of at most {@code levels} levels, or null.
   */
  public static String filterProblem(String filter, int levels) {
    String[] parts = filter.split("/", -1);
    int named = parts[parts.length - 1].equals("#") ? parts.length - 1 : parts.length;
    if (named > levels) {
      return "topic filter '" + filter + "' has " + named + " levels, at most " + levels;
    }
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.isEmpty()) {
        return "topic filter '" + filter + "' has an empty level " + (i + 1);
      }
      if (p.equals("#") && i < parts.length - 1) {
        return "topic filter '" + filter + "': '#' must be the last level";
      }
      if (!p.equals("+") && !p.equals("#") && (p.indexOf('+') >= 0 || p.indexOf('#') >= 0)) {
        return "topic filter '" + filter + "': a wildcard (+ or #) must be a whole level";
      }
    }
    return null;
  }

  /** Whether the filter has a wildcard level. */
  public static boolean hasWildcard(String filter) {
    return filter.indexOf('+') >= 0 || filter.indexOf('#') >= 0;
  }

  /**
   * MQTT's match: level by level, {@code +} matches one level, {@code #} the rest (the parent level
   * included: {@code a/#} matches {@code a}); a wildcard first level matches no name starting with
   * {@code $}.
   */
  public static boolean matches(String filter, String name) {
    if (name.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
      return false;
    }
    String[] f = filter.split("/", -1);
    String[] n = name.split("/", -1);
    for (int i = 0; i < f.length; i++) {
      if (f[i].equals("#")) {
        return true;
      }
      if (i >= n.length || !f[i].equals("+") && !f[i].equals(n[i])) {
        return false;
      }
    }
    return f.length == n.length;
  }
}
