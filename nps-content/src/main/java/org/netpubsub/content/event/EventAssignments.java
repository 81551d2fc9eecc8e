package org.netpubsub.content.event;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * Reads {@code name=value} words (a command line) into an event. Errors point at the word, in the
 * words joined by spaces.
 */
final class EventAssignments {
  private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");

  private final Schema schema;
  private final String line;

  private EventAssignments(Schema schema, List<String> words) {
    this.schema = schema;
    this.line = String.join(" ", words);
  }

  static Event parse(Schema schema, List<String> words) {
    return new EventAssignments(schema, words).read(words);
  }

  private Event read(List<String> words) {
    Event.Builder b = Event.builder(schema);
    String[] given = new String[schema.size()];
    int offset = 0;
    for (String word : words) {
      assign(b, given, word, offset);
      offset += word.length() + 1;
    }
    List<String> missing = new ArrayList<>();
    for (Attribute a : schema.attributes()) {
      if (given[a.position()] == null) {
        missing.add(a.name());
      }
    }
    if (!missing.isEmpty()) {
      throw new InvalidInputException(
          "missing "
              + (missing.size() == 1 ? "attribute " : "attributes ")
              + String.join(", ", missing)
              + "; every attribute of "
              + schema.name()
              + " needs a value");
    }
    return b.build();
  }

  private void assign(Event.Builder b, String[] given, String word, int offset) {
    int eq = word.indexOf('=');
    if (eq <= 0) {
      throw error(offset, "expected name=value, got '" + word + "'");
    }
    String name = word.substring(0, eq);
    Attribute a =
        schema
            .attribute(name)
            .orElseThrow(() -> error(offset, AttributeValues.unknown(schema, name)));
    if (given[a.position()] != null) {
      throw error(
          offset, "'" + word + "': " + name + " is already given ('" + given[a.position()] + "')");
    }
    given[a.position()] = word;
    String value = unquote(word.substring(eq + 1));
    int valueOffset = offset + eq + 1;
    switch (a) {
      case IntAttribute i -> {
        if (!INTEGER.matcher(value).matches()) {
          throw error(
              valueOffset, "'" + word + "': " + name + " needs an integer, got '" + value + "'");
        }
        BigInteger v = new BigInteger(value);
        String problem = AttributeValues.intProblem(i, v);
        if (problem != null) {
          throw error(valueOffset, "'" + word + "': " + value + " is " + problem);
        }
        b.set(i, v.longValueExact());
      }
      case StringAttribute s -> {
        String problem = AttributeValues.stringProblem(s, value);
        if (problem != null) {
          throw error(valueOffset, "'" + word + "': the value is " + problem);
        }
        b.set(s, value);
      }
    }
  }

  /** A value in double quotes is taken without them (shells keep quotes people escape). */
  private static String unquote(String value) {
    return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
        ? value.substring(1, value.length() - 1)
        : value;
  }

  private InvalidInputException error(int offset, String reason) {
    return new InvalidInputException(reason, SourcePosition.ofOffset(line, offset), line);
  }
}
