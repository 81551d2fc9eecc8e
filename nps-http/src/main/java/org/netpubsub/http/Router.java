package org.netpubsub.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The route table of one server, matched without I/O: a path uses {@code {param}} for one segment
 * and {@code <param>} for the rest of the path, slashes included (last only). Paths are tried in
 * the order they were registered; a trailing slash is ignored. A path that matches but has no route
 * for the method is answered 405 with {@link Match#allow}.
 */
final class Router {
  /** A path that matched: its routes by method, the Allow header, the parameters (decoded). */
  record Match(Entry entry, Map<String, String> params) {
    Route route(String method) {
      return entry.byMethod.get(method);
    }

    String allow() {
      return entry.allow;
    }

    String pattern() {
      return entry.pattern;
    }
  }

  static final class Entry {
    final String pattern;
    final String[] segments;
    final Map<String, Route> byMethod;
    final String allow;

    Entry(String pattern, Map<String, Route> byMethod) {
      this.pattern = pattern;
      this.segments = split(pattern).toArray(String[]::new);
      this.byMethod = Map.copyOf(byMethod);
      this.allow = String.join(", ", new TreeSet<>(byMethod.keySet()));
      for (int i = 0; i < segments.length - 1; i++) {
        if (segments[i].startsWith("<")) {
          throw new IllegalArgumentException("<param> must be last: " + pattern);
        }
      }
    }
  }

  private final List<Entry> entries = new ArrayList<>();

  /** {@code table}: path pattern to its routes by method, in registration order. */
  Router(Map<String, Map<String, Route>> table) {
    table.forEach((path, byMethod) -> entries.add(new Entry(path, byMethod)));
  }

  /** The entry for {@code segments} (a decoded path split at slashes), or null: 404. */
  Match match(List<String> segments) {
    for (Entry e : entries) {
      Map<String, String> params = matches(e.segments, segments);
      if (params != null) {
        return new Match(e, params);
      }
    }
    return null;
  }

  private static Map<String, String> matches(String[] pattern, List<String> path) {
    Map<String, String> params = null;
    for (int i = 0; i < pattern.length; i++) {
      String p = pattern[i];
      if (p.startsWith("<")) {
        if (i >= path.size()) {
          return null;
        }
        params = put(params, p, String.join("/", path.subList(i, path.size())));
        return params == null ? Map.of() : params;
      }
      if (i >= path.size()) {
        return null;
      }
      String s = path.get(i);
      if (p.startsWith("{")) {
        if (s.isEmpty()) {
          return null;
        }
        params = put(params, p, s);
      } else if (!p.equals(s)) {
        return null;
      }
    }
    if (pattern.length != path.size()) {
      return null;
    }
    return params == null ? Map.of() : params;
  }

  private static Map<String, String> put(Map<String, String> params, String p, String value) {
    Map<String, String> m = params == null ? new LinkedHashMap<>(4) : params;
    m.put(p.substring(1, p.length() - 1), value);
    return m;
  }

  /** The segments of a path: {@code /a/b/} is {@code [a, b]}, {@code /} is {@code []}. */
  static List<String> split(String path) {
    List<String> out = new ArrayList<>(8);
    int start = path.startsWith("/") ? 1 : 0;
    while (start <= path.length()) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? path.length() : slash;
      out.add(path.substring(start, end));
      start = end + 1;
    }
    while (!out.isEmpty() && out.getLast().isEmpty()) {
      out.removeLast();
    }
    return out;
  }
}
