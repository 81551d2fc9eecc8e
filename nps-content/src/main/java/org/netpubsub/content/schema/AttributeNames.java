package org.netpubsub.content.schema;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rule for attribute names: identifiers ({@code [A-Za-z_][A-Za-z0-9_]*}) joined by dots, such
 * as {@code price} or {@code int.switch_id}, and never a word of the filter language.
 */
public final class AttributeNames {
  /** Longer names are refused: they only make messages and tables unreadable. */
  public static final int MAX_LENGTH = 128;

  /**
   * Words of the filter language; refused as names in any letter case, so filters stay unambiguous.
   */
  public static final Set<String> RESERVED =
      Set.of(
          "and",
          "or",
          "not",
          "true",
          "false",
          "in",
          "prefix",
          "suffix",
          "contains",
          "over",
          "count",
          "sum",
          "avg");

  private static final Pattern NAME =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");

  private AttributeNames() {}

  public static boolean isValid(String name) {
    return problem(name).isEmpty();
  }

  /** Why {@code name} is not a valid attribute name, or empty when it is. */
  public static Optional<String> problem(String name) {
    if (name.isEmpty()) {
      return Optional.of("an attribute name must not be empty");
    }
    if (name.length() > MAX_LENGTH) {
      return Optional.of(
          "attribute name is longer than " + MAX_LENGTH + " characters: '" + name + "'");
    }
    if (!NAME.matcher(name).matches()) {
      return Optional.of(
          "invalid attribute name '"
              + name
              + "': use identifiers ([A-Za-z_][A-Za-z0-9_]*) joined by dots, e.g. int.switch_id");
    }
    if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
      return Optional.of(
          "'" + name + "' is a word of the filter language and cannot name an attribute");
    }
    return Optional.empty();
  }
}
