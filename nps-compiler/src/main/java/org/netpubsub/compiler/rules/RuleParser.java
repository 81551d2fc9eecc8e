package org.netpubsub.compiler.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;

/**
 * Reads rule files: one rule per line, {@code FILTER : fwd(P[, P…]);} (the semicolon is optional),
 * {@code #} starts a comment outside string literals, blank lines are skipped. Filters are in the
 * netpubsub filter language over the spec's schema. Errors carry the line and column in the file
 * and render with a caret; rule ids are {@code line N}.
 */
public final class RuleParser {
  /** A rule file is refused past this many rules. */
  public static final int MAX_RULES = 1_000_000;

  private static final Pattern ACTION =
      Pattern.compile("\\s*fwd\\s*\\(\\s*([0-9]+(\\s*,\\s*[0-9]+)*)\\s*\\)\\s*;?\\s*");

  private RuleParser() {}

  public static List<Rule> parse(Schema schema, String text) {
    List<Rule> rules = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = stripComment(lines[i]);
      if (line.isBlank()) {
        continue;
      }
      if (rules.size() == MAX_RULES) {
        throw error(i, 1, "more than " + MAX_RULES + " rules", text);
      }
      rules.add(parseLine(schema, line, i, text));
    }
    return rules;
  }

  /** One rule, as from a file whose only line it is. */
  public static Rule parseRule(Schema schema, String line, String id) {
    Rule r = parseLine(schema, stripComment(line), 0, line);
    return new Rule(id, r.filter(), r.dnf(), r.ports());
  }

  private static Rule parseLine(Schema schema, String line, int index, String text) {
    int colon = separator(line);
    if (colon < 0) {
      throw error(index, line.length() + 1, "expected ': fwd(PORT, …)' after the filter", text);
    }
    String filter = line.substring(0, colon).strip();
    int filterStart = line.indexOf(filter.isEmpty() ? ":" : filter) + 1;
    if (filter.isEmpty()) {
      throw error(index, colon + 1, "a rule needs a filter before ':'", text);
    }
    Matcher m = ACTION.matcher(line.substring(colon + 1));
    if (!m.matches()) {
      throw error(index, colon + 2, "expected fwd(PORT[, PORT…]) after ':'", text);
    }
    int[] ports;
    try {
      ports =
          java.util.Arrays.stream(m.group(1).split(","))
              .mapToInt(p -> Integer.parseInt(p.strip()))
              .toArray();
    } catch (NumberFormatException e) {
      throw error(index, colon + 2, "a port must be a number in 0.." + Rule.MAX_PORT, text);
    }
    for (int p : ports) {
      if (p > Rule.MAX_PORT) {
        throw error(index, colon + 2, "port " + p + " is outside 0.." + Rule.MAX_PORT, text);
      }
    }
    try {
      var dnf = Normalizer.toDnf(FilterParser.parse(schema, filter));
      return new Rule("line " + (index + 1), filter, dnf, ports);
    } catch (InvalidInputException e) {
      int column = e.position().map(SourcePosition::column).orElse(1);
      throw error(index, filterStart + column - 1, e.reason(), text);
    }
  }

  /** The ':' before the action, outside string literals; -1 if none. */
  private static int separator(String line) {
    boolean quoted = false;
    int last = -1;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && quoted) {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ':' && !quoted) {
        last = i;
      }
    }
    return last;
  }

  private static String stripComment(String line) {
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && quoted) {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == '#' && !quoted) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  private static InvalidInputException error(int index, int column, String reason, String text) {
    return new InvalidInputException(
        reason, new SourcePosition(index + 1, Math.max(1, column)), text);
  }
}
