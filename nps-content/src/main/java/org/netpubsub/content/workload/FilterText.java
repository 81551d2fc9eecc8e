package org.netpubsub.content.workload;

import java.util.List;

/** Writes constraints and their conjunctions/disjunctions as netpubsub filter text. */
final class FilterText {
  private FilterText() {}

  /** {@code name op value}, e.g. {@code price > 500000}. */
  static String compare(String name, String op, long value) {
    return name + " " + op + " " + value;
  }

  /** {@code name in [lo, hi]}, both inclusive. */
  static String range(String name, long lo, long hi) {
    return name + " in [" + lo + ", " + hi + "]";
  }

  /** {@code name op "value"}, e.g. {@code stock == "GOOGL"} or {@code x1 prefix "th"}. */
  static String string(String name, String op, String value) {
    return name + " " + op + " " + quote(value);
  }

  static String quote(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  static String and(List<String> constraints) {
    return String.join(" && ", constraints);
  }

  /** Disjunction of conjunctions; a conjunction of several constraints is parenthesized. */
  static String or(List<List<String>> conjunctions) {
    if (conjunctions.size() == 1) {
      return and(conjunctions.get(0));
    }
    StringBuilder sb = new StringBuilder();
    for (List<String> c : conjunctions) {
      if (!sb.isEmpty()) {
        sb.append(" || ");
      }
      sb.append(c.size() == 1 ? c.get(0) : "(" + and(c) + ")");
    }
    return sb.toString();
  }
}
