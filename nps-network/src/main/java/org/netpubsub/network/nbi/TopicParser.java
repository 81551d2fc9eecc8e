package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Reads {@link NbiTopic#parse} syntax, blaming errors on a 1-based column of the text. */
final class TopicParser {
  private static final String BYTES = "bytes@";
  private static final String KNOWN =
      Arrays.stream(HeaderField.values())
              .map(HeaderField::keyword)
              .collect(Collectors.joining(", "))
          + ", "
          + BYTES
          + "OFFSET/LENGTH";

  private final String text;
  private final List<FieldConstraint> constraints = new ArrayList<>();
  private final Map<HeaderField, Integer> seenAt = new HashMap<>();

  private TopicParser(String text) {
    this.text = text;
  }

  static NbiTopic parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("topic text is null");
    }
    return new TopicParser(text).topic();
  }

  private NbiTopic topic() {
    if (text.isBlank()) {
      throw error(0, "empty topic (write * for every packet-in)");
    }
    if (text.strip().equals("*")) {
      return NbiTopic.ANY;
    }
    for (int start = 0; ; ) {
      int comma = text.indexOf(',', start);
      int end = comma < 0 ? text.length() : comma;
      clause(start, end);
      if (comma < 0) {
        break;
      }
      start = comma + 1;
    }
    return new NbiTopic(constraints);
  }

  /** The clause in text[from, to), surrounding whitespace skipped. */
  private void clause(int from, int to) {
    while (from < to && Character.isWhitespace(text.charAt(from))) {
      from++;
    }
    while (to > from && Character.isWhitespace(text.charAt(to - 1))) {
      to--;
    }
    if (from == to) {
      throw error(from, "empty clause");
    }
    String clause = text.substring(from, to);
    if (clause.equals("*")) {
      throw error(from, "'*' (every packet-in) stands alone, not in a list of clauses");
    }
    FieldConstraint c =
        clause.startsWith(BYTES) ? bytes(from + BYTES.length(), to) : namedField(from, to);
    if (!c.isWildcard()) { // ipv6_dst=::/0 says nothing, as in NbiTopic
      constraints.add(c);
    }
    int at = from;
    NbiTopic.problem(constraints)
        .ifPresent(
            why -> {
              throw error(at, why);
            });
  }

  private FieldConstraint namedField(int from, int to) {
    int eq = text.indexOf('=', from);
    if (eq < 0 || eq >= to) {
      throw error(from, "expected field=value");
    }
    String name = text.substring(from, eq);
    HeaderField f = HeaderField.ofKeyword(name);
    if (f == null) {
      throw error(from, "unknown field '" + name + "' (known: " + KNOWN + ")");
    }
    Integer first = seenAt.putIfAbsent(f, from);
    if (first != null) {
      throw error(from, name + " given twice (first at column " + (first + 1) + ")");
    }
    if (eq + 1 == to) {
      throw error(eq + 1, "missing value of " + name);
    }
    try {
      return f.parseValue(text.substring(eq + 1, to));
    } catch (IllegalArgumentException e) {
      throw error(eq + 1, e.getMessage());
    }
  }

  /** OFFSET/LENGTH[&MASK]=VALUE in text[from, to). */
  private FieldConstraint bytes(int from, int to) {
    int slash = text.indexOf('/', from);
    int eq = text.indexOf('=', from);
    if (slash < 0 || slash >= to || eq < 0 || eq >= to || eq < slash) {
      throw error(from, "expected " + BYTES + "OFFSET/LENGTH[&MASK]=VALUE");
    }
    int amp = text.indexOf('&', slash);
    boolean masked = amp >= 0 && amp < eq;
    int offset = decimal(from, slash, "offset", ByteWindow.MAX_OFFSET);
    int length = decimal(slash + 1, masked ? amp : eq, "length", ByteWindow.MAX_LENGTH);
    if (length == 0) {
      throw error(slash + 1, "length must be at least 1");
    }
    byte[] mask = masked ? hex(amp + 1, eq, length, "mask") : allOnes(length);
    byte[] value = hex(eq + 1, to, length, "value");
    return FieldConstraint.bytes(offset, mask, value);
  }

  private int decimal(int from, int to, String what, int max) {
    String s = text.substring(from, to);
    if (s.isEmpty() || s.length() > 5 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw error(from, what + " must be a decimal number: '" + s + "'");
    }
    int v = Integer.parseInt(s);
    if (v > max) {
      throw error(from, what + " must be at most " + max + ": " + v);
    }
    return v;
  }

  private byte[] hex(int from, int to, int length, String what) {
    int digitsAt = text.startsWith("0x", from) || text.startsWith("0X", from) ? from + 2 : from;
    String digits = text.substring(Math.min(digitsAt, to), to);
    if (digits.length() != 2 * length) {
      throw error(
          from,
          what
              + " must have "
              + 2 * length
              + " hex digits ("
              + length
              + " bytes): '"
              + digits
              + "'");
    }
    byte[] out = new byte[length];
    for (int i = 0; i < digits.length(); i++) {
      int d = Character.digit(digits.charAt(i), 16);
      if (d < 0) {
        throw error(digitsAt + i, what + " has a non-hex digit '" + digits.charAt(i) + "'");
      }
      out[i / 2] = (byte) (out[i / 2] << 4 | d);
    }
    return out;
  }

  private static byte[] allOnes(int length) {
    byte[] b = new byte[length];
    Arrays.fill(b, (byte) 0xff);
    return b;
  }

  /** The error at 0-based index {@code at}, reported 1-based. */
  private IllegalArgumentException error(int at, String why) {
    return new IllegalArgumentException("topic '" + text + "', column " + (at + 1) + ": " + why);
  }
}
