package org.netpubsub.content.schema;

import java.util.Optional;
import java.util.regex.Pattern;

/** The rule for schema names: letters, digits, '_', '.', '-', at most 128 characters. */
final class SchemaNames {
  static final String DEFAULT = "schema";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

  private SchemaNames() {}

  static Optional<String> problem(String name) {
    return NAME.matcher(name).matches()
        ? Optional.empty()
        : Optional.of(
            "invalid schema name '"
                + name
                + "': use 1 to 128 letters, digits, '_', '.' or '-', starting with a letter,"
                + " digit or '_'");
  }

  /**
   * The default name for a schema read from {@code sourceName}: the file name without extension.
   */
  static String fromSourceName(String sourceName) {
    if (sourceName == null) {
      return DEFAULT;
    }
    String base = sourceName.replaceAll(".*[/\\\\]", "");
    int dot = base.lastIndexOf('.');
    String stem = dot > 0 ? base.substring(0, dot) : base;
    return problem(stem).isEmpty() ? stem : DEFAULT;
  }
}
