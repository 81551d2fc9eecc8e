package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * Test helper: splits generated filter text (a disjunction of conjunctions of simple constraints)
 * into its constraints, without the real parser. Generated constants never contain "&&" or "||".
 */
record Constraints(List<List<Constraint>> disjuncts) {
  /** One constraint; {@code high} is set only for ranges, {@code text} only for strings. */
  record Constraint(String attribute, String op, long value, long high, String text) {}

  private static final Pattern RANGE = Pattern.compile("(\\w+) in \\[(-?\\d+), (-?\\d+)\\]");
  private static final Pattern INT = Pattern.compile("(\\w+) (==|!=|<=|>=|<|>) (-?\\d+)");
  private static final Pattern STRING =
      Pattern.compile("(\\w+) (==|!=|prefix|suffix|contains) \"([^\"\\\\]*)\"");

  static Constraints parse(String filter) {
    List<List<Constraint>> out = new ArrayList<>();
    for (String disjunct : filter.split(" \\|\\| ")) {
      String body = disjunct;
      if (body.startsWith("(") && body.endsWith(")")) {
        body = body.substring(1, body.length() - 1);
      }
      List<Constraint> conjunction = new ArrayList<>();
      for (String c : body.split(" && ")) {
        conjunction.add(constraint(c));
      }
      out.add(conjunction);
    }
    return new Constraints(out);
  }

  private static Constraint constraint(String c) {
    Matcher m = RANGE.matcher(c);
    if (m.matches()) {
      return new Constraint(
          m.group(1), "in", Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), null);
    }
    m = INT.matcher(c);
    if (m.matches()) {
      return new Constraint(m.group(1), m.group(2), Long.parseLong(m.group(3)), 0, null);
    }
    m = STRING.matcher(c);
    if (m.matches()) {
      return new Constraint(m.group(1), m.group(2), 0, 0, m.group(3));
    }
    throw new AssertionError("not a generated constraint: '" + c + "'");
  }

  List<Constraint> all() {
    return disjuncts.stream().flatMap(List::stream).toList();
  }

  /** Throws unless every constraint names a schema attribute of the right type, in its domain. */
  void checkAgainst(Schema schema) {
    for (Constraint c : all()) {
      Attribute a =
          schema
              .attribute(c.attribute())
              .orElseThrow(() -> new AssertionError("unknown attribute " + c.attribute()));
      switch (a) {
        case IntAttribute i -> {
          if (c.text() != null || !i.contains(c.value()) || c.op().equals("in") && !inRange(i, c)) {
            throw new AssertionError("bad int constraint " + c + " for " + i);
          }
        }
        case StringAttribute s -> {
          if (c.text() == null || !s.fits(c.text())) {
            throw new AssertionError("bad string constraint " + c + " for " + s);
          }
        }
      }
    }
  }

  private static boolean inRange(IntAttribute i, Constraint c) {
    return c.value() <= c.high() && i.contains(c.high());
  }
}
