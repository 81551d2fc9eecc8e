package org.netpubsub.content.filter;

import org.netpubsub.content.schema.Schema;

/**
 * Parses and type-checks filter text against a schema.
 *
 * <pre>
 * or        := and (('||' | 'or') and)*
 * and       := unary (('&amp;&amp;' | 'and') unary)*
 * unary     := ('!' | 'not') unary | primary
 * primary   := '(' or ')' | 'true' | 'false' | constraint | aggregate
 * constraint:= name ('&lt;' | '&lt;=' | '&gt;' | '&gt;=' | '==' | '!=') constant
 *            | name ('prefix' | 'suffix' | 'contains') string
 *            | name 'in' '[' int ',' int ']'
 * aggregate := ('count' '(' ')' | ('sum' | 'avg') '(' name ')') comparison number 'over' window
 * </pre>
 *
 * Names are identifiers joined by dots; keywords are reserved. Integers are 64-bit, decimal or
 * {@code 0x} hex. Strings are double-quoted ({@code \" \\ \n \t \\uXXXX}), or a bare word when the
 * attribute is a string (Camus writes {@code stock == GOOGL}). A single {@code =} is read as {@code
 * ==}. Windows are positive durations: {@code 100ns}, {@code us}, {@code ms}, {@code s}, {@code m}.
 * Filters longer than 64 KiB or nested deeper than 200 levels are refused.
 */
public final class FilterParser {
  private FilterParser() {}

  /**
   * @throws org.netpubsub.content.InvalidInputException on a syntax error, an unknown attribute, a
   *     type mismatch or a constant outside the domain, with line and column
   */
  public static Filter parse(Schema schema, String text) {
    return Parser.parse(schema, text);
  }
}
