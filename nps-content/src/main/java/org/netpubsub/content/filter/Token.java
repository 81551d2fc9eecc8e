package org.netpubsub.content.filter;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * One lexical token of filter text: its kind, the text as written, where it starts (0-based
 * character offset) and, for constants, its value (Long, BigDecimal, Duration or String; a
 * malformed window carries the reason as a String).
 */
record Token(Token.Kind kind, String text, int offset, Object value) {

  /** Token kinds; keywords carry their spelling. */
  enum Kind {
    IDENT,
    INT,
    DECIMAL,
    DURATION,
    STRING,
    LPAREN,
    RPAREN,
    LBRACKET,
    RBRACKET,
    COMMA,
    AND,
    OR,
    NOT,
    TRUE,
    FALSE,
    IN,
    PREFIX,
    SUFFIX,
    CONTAINS,
    MATCHES,
    OVER,
    COUNT,
    SUM,
    AVG,
    LT,
    LE,
    GT,
    GE,
    EQ,
    NE,
    EOF
  }

  long longValue() {
    return (Long) value;
  }

  BigDecimal decimalValue() {
    return value instanceof Long l ? BigDecimal.valueOf(l) : (BigDecimal) value;
  }

  /** The window of a DURATION token, or null when it is malformed (see {@link #stringValue}). */
  Duration durationValue() {
    return value instanceof Duration d ? d : null;
  }

  String stringValue() {
    return (String) value;
  }

  /** How an error message names this token: quoted text, or "the end of the filter". */
  String describe() {
    if (kind == Kind.EOF) {
      return "the end of the filter";
    }
    String shown = text.length() > 40 ? text.substring(0, 37) + "..." : text;
    return kind == Kind.STRING ? shown : "'" + shown + "'";
  }
}
