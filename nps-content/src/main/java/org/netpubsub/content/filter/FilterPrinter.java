package org.netpubsub.content.filter;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.schema.IntAttribute;

/**
 * Prints filters and normal forms as text that {@link FilterParser} reads back. Parentheses only
 * where precedence needs them, except that a negated comparison is always written {@code !(x < 5)}:
 * {@code !x < 5} would parse the same but reads as {@code (!x) < 5}. Strings are always quoted.
 */
public final class FilterPrinter {
  private static final int OR = 1;
  private static final int AND = 2;
  private static final int UNARY = 3;

  private static final BigInteger[] UNIT_NANOS = {
    BigInteger.valueOf(60_000_000_000L),
    BigInteger.valueOf(1_000_000_000L),
    BigInteger.valueOf(1_000_000L),
    BigInteger.valueOf(1_000L),
    BigInteger.ONE
  };
  private static final String[] UNIT_NAMES = {"m", "s", "ms", "us", "ns"};

  private FilterPrinter() {}

  public static String print(Filter filter) {
    StringBuilder out = new StringBuilder();
    print(filter, OR, out);
    return out.toString();
  }

  /** The normal form: conjunctions joined by {@code ||}; {@code false} when there are none. */
  public static String print(Dnf dnf) {
    if (dnf.isFalse()) {
      return "false";
    }
    List<String> parts = new ArrayList<>();
    for (Conjunction c : dnf.conjunctions()) {
      parts.add(print(c));
    }
    return String.join(" || ", parts);
  }

  /** One conjunction: its constraints by attribute position, then its aggregates. */
  public static String print(Conjunction conjunction) {
    List<String> parts = new ArrayList<>();
    for (AttributeConstraint c : conjunction.constraints()) {
      switch (c) {
        case IntConstraint i -> intParts(i, parts);
        case StringConstraint s -> stringParts(s, parts);
      }
    }
    for (Filter.Aggregate a : conjunction.aggregates()) {
      parts.add(atom(a));
    }
    return parts.isEmpty() ? "true" : String.join(" && ", parts);
  }

  private static void print(Filter f, int context, StringBuilder out) {
    switch (f) {
      case Filter.Or or when or.operands().size() != 1 -> {
        if (or.operands().isEmpty()) {
          out.append("false");
        } else {
          join(or.operands(), " || ", OR, context > OR, out);
        }
      }
      case Filter.Or or -> print(or.operands().get(0), context, out);
      case Filter.And and when and.operands().size() != 1 -> {
        if (and.operands().isEmpty()) {
          out.append("true");
        } else {
          join(and.operands(), " && ", AND, context > AND, out);
        }
      }
      case Filter.And and -> print(and.operands().get(0), context, out);
      case Filter.Not not -> {
        out.append('!');
        Filter operand = unwrap(not.operand());
        if (isComparison(operand)) {
          out.append('(').append(atom(operand)).append(')');
        } else {
          print(not.operand(), UNARY, out);
        }
      }
      case Filter.Constant c -> out.append(c.value());
      default -> out.append(atom(f));
    }
  }

  private static void join(
      List<Filter> operands, String separator, int level, boolean parens, StringBuilder out) {
    if (parens) {
      out.append('(');
    }
    for (int i = 0; i < operands.size(); i++) {
      if (i > 0) {
        out.append(separator);
      }
      print(operands.get(i), level, out);
    }
    if (parens) {
      out.append(')');
    }
  }

  /** The operand of a one-operand And or Or, which prints as that operand. */
  private static Filter unwrap(Filter f) {
    while (true) {
      if (f instanceof Filter.And a && a.operands().size() == 1) {
        f = a.operands().get(0);
      } else if (f instanceof Filter.Or o && o.operands().size() == 1) {
        f = o.operands().get(0);
      } else {
        return f;
      }
    }
  }

  private static boolean isComparison(Filter f) {
    return f instanceof Filter.IntComparison
        || f instanceof Filter.IntRange
        || f instanceof Filter.StringComparison
        || f instanceof Filter.Aggregate;
  }

  private static String atom(Filter f) {
    return switch (f) {
      case Filter.IntComparison c -> c.attribute().name() + " " + c.op().symbol() + " " + c.value();
      case Filter.IntRange r -> r.attribute().name() + " in [" + r.low() + ", " + r.high() + "]";
      case Filter.StringComparison s ->
          s.attribute().name() + " " + s.op().symbol() + " " + quote(s.value());
      case Filter.Aggregate a ->
          a.function().name().toLowerCase()
              + "("
              + (a.argument() == null ? "" : a.argument().name())
              + ") "
              + a.op().symbol()
              + " "
              + a.threshold().toPlainString()
              + " over "
              + window(a.window());
      default -> throw new IllegalArgumentException("not an atom: " + f);
    };
  }

  private static void intParts(IntConstraint c, List<String> parts) {
    IntAttribute a = c.attribute();
    String name = a.name();
    if (c.low() == c.high()) {
      parts.add(name + " == " + c.low());
    } else if (c.low() != a.min() && c.high() != a.max()) {
      parts.add(name + " in [" + c.low() + ", " + c.high() + "]");
    } else if (c.low() != a.min()) {
      parts.add(name + " >= " + c.low());
    } else if (c.high() != a.max()) {
      parts.add(name + " <= " + c.high());
    }
    for (long e : c.excluded()) {
      parts.add(name + " != " + e);
    }
  }

  private static void stringParts(StringConstraint c, List<String> parts) {
    String name = c.attribute().name();
    if (c.equalTo() != null) {
      parts.add(name + " == " + quote(c.equalTo()));
    }
    c.notEqualTo().forEach(v -> parts.add(name + " != " + quote(v)));
    c.prefixes().forEach(v -> parts.add(name + " prefix " + quote(v)));
    c.suffixes().forEach(v -> parts.add(name + " suffix " + quote(v)));
    c.contains().forEach(v -> parts.add(name + " contains " + quote(v)));
    c.notPrefixes().forEach(v -> parts.add("!(" + name + " prefix " + quote(v) + ")"));
    c.notSuffixes().forEach(v -> parts.add("!(" + name + " suffix " + quote(v) + ")"));
    c.notContains().forEach(v -> parts.add("!(" + name + " contains " + quote(v) + ")"));
    c.patterns().forEach(v -> parts.add(name + " matches " + quote(v)));
    c.notPatterns().forEach(v -> parts.add("!(" + name + " matches " + quote(v) + ")"));
  }

  /** A double-quoted string constant with the escapes the lexer reads. */
  static String quote(String s) {
    StringBuilder q = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> q.append("\\\"");
        case '\\' -> q.append("\\\\");
        case '\n' -> q.append("\\n");
        case '\t' -> q.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            q.append(String.format("\\u%04X", (int) c));
          } else {
            q.append(c);
          }
        }
      }
    }
    return q.append('"').toString();
  }

  /** A window in the largest unit that divides it exactly. */
  static String window(Duration d) {
    BigInteger nanos =
        BigInteger.valueOf(d.getSeconds())
            .multiply(UNIT_NANOS[1])
            .add(BigInteger.valueOf(d.getNano()));
    for (int i = 0; i < UNIT_NANOS.length; i++) {
      BigInteger[] qr = nanos.divideAndRemainder(UNIT_NANOS[i]);
      if (qr[1].signum() == 0) {
        return qr[0] + UNIT_NAMES[i];
      }
    }
    throw new AssertionError("every duration is a whole number of nanoseconds");
  }
}
