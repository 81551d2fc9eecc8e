package org.netpubsub.content.filter;

import org.netpubsub.content.schema.Schema;

/** Parses and type-checks filter text against a schema. */
public final class FilterParser {
  private FilterParser() {}

  /**
   * @throws org.netpubsub.content.InvalidInputException on a syntax error, an unknown attribute, a
   *     type mismatch or a constant outside the domain, with line and column
   */
  public static Filter parse(Schema schema, String text) {
    throw new UnsupportedOperationException("TODO(filter helper)");
  }
}
