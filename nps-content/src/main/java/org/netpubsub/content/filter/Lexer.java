package org.netpubsub.content.filter;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.netpubsub.content.filter.Token.Kind;

/**
 * Splits filter text into tokens on demand, so that the parser reports the leftmost error: a bad
 * character late in the text is only seen once everything before it has parsed.
 */
final class Lexer {
  private static final Map<String, Kind> KEYWORDS =
      Map.ofEntries(
          Map.entry("and", Kind.AND),
          Map.entry("or", Kind.OR),
          Map.entry("not", Kind.NOT),
          Map.entry("true", Kind.TRUE),
          Map.entry("false", Kind.FALSE),
          Map.entry("in", Kind.IN),
          Map.entry("prefix", Kind.PREFIX),
          Map.entry("suffix", Kind.SUFFIX),
          Map.entry("contains", Kind.CONTAINS),
          Map.entry("matches", Kind.MATCHES),
          Map.entry("over", Kind.OVER),
          Map.entry("count", Kind.COUNT),
          Map.entry("sum", Kind.SUM),
          Map.entry("avg", Kind.AVG));

  private static final Map<String, ChronoUnit> UNITS =
      Map.of(
          "ns", ChronoUnit.NANOS,
          "us", ChronoUnit.MICROS,
          "ms", ChronoUnit.MILLIS,
          "s", ChronoUnit.SECONDS,
          "m", ChronoUnit.MINUTES);

  private static final BigInteger MIN_LONG = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger MAX_LONG = BigInteger.valueOf(Long.MAX_VALUE);

  private final String text;
  private int pos;

  Lexer(String text) {
    this.text = text;
  }

  /** Whether {@code word} is reserved and therefore cannot name an attribute. */
  static boolean isKeyword(String word) {
    return KEYWORDS.containsKey(word);
  }

  /** An error at a 0-based offset into {@code text}. */
  static InvalidInputException errorAt(String text, int offset, String reason) {
    return new InvalidInputException(reason, SourcePosition.ofOffset(text, offset), text);
  }

  /** The next token; {@link Kind#EOF} at the end, again and again. */
  Token next() {
    while (pos < text.length() && isSpace(text.charAt(pos))) {
      pos++;
    }
    int start = pos;
    if (pos >= text.length()) {
      return new Token(Kind.EOF, "", start, null);
    }
    char c = text.charAt(pos);
    if (isIdentStart(c)) {
      return word(start);
    }
    if (isDigit(c) || (c == '-' && pos + 1 < text.length() && isDigit(text.charAt(pos + 1)))) {
      return number(start);
    }
    if (c == '"') {
      return string(start);
    }
    pos++;
    return switch (c) {
      case '(' -> token(Kind.LPAREN, start);
      case ')' -> token(Kind.RPAREN, start);
      case '[' -> token(Kind.LBRACKET, start);
      case ']' -> token(Kind.RBRACKET, start);
      case ',' -> token(Kind.COMMA, start);
      case '&' -> doubled('&', Kind.AND, start);
      case '|' -> doubled('|', Kind.OR, start);
      case '!' -> token(follows('=') ? Kind.NE : Kind.NOT, start);
      // A single '=' is accepted for '==': Camus writes `int.switch_id = 2`.
      case '=' -> {
        follows('=');
        yield token(Kind.EQ, start);
      }
      case '<' -> token(follows('=') ? Kind.LE : Kind.LT, start);
      case '>' -> token(follows('=') ? Kind.GE : Kind.GT, start);
      default -> throw errorAt(text, start, "unexpected character " + show(c));
    };
  }

  private Token token(Kind kind, int start) {
    return new Token(kind, text.substring(start, pos), start, null);
  }

  private boolean follows(char c) {
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private Token doubled(char c, Kind kind, int start) {
    if (!follows(c)) {
      throw errorAt(
          text, start, "unexpected character '" + c + "' (did you mean '" + c + c + "'?)");
    }
    return token(kind, start);
  }

  /** An identifier (segments joined by dots) or a keyword. */
  private Token word(int start) {
    while (true) {
      while (pos < text.length() && isIdentPart(text.charAt(pos))) {
        pos++;
      }
      if (pos + 1 < text.length()
          && text.charAt(pos) == '.'
          && isIdentStart(text.charAt(pos + 1))) {
        pos++;
      } else {
        break;
      }
    }
    String w = text.substring(start, pos);
    return new Token(KEYWORDS.getOrDefault(w, Kind.IDENT), w, start, null);
  }

  /** A decimal or 0x integer, a decimal fraction, or a duration such as {@code 100ms}. */
  private Token number(int start) {
    boolean negative = text.charAt(pos) == '-';
    if (negative) {
      pos++;
    }
    int digitsStart = pos;
    boolean hex = text.startsWith("0x", pos) || text.startsWith("0X", pos);
    Token result;
    if (hex) {
      pos += 2;
      int hexStart = pos;
      while (pos < text.length() && Character.digit(text.charAt(pos), 16) >= 0) {
        pos++;
      }
      if (pos == hexStart) {
        throw malformed(start);
      }
      result = integer(start, new BigInteger(text.substring(hexStart, pos), 16), negative);
    } else {
      skipDigits();
      boolean fraction =
          pos + 1 < text.length() && text.charAt(pos) == '.' && isDigit(text.charAt(pos + 1));
      if (fraction) {
        pos++;
        skipDigits();
        result =
            new Token(
                Kind.DECIMAL,
                text.substring(start, pos),
                start,
                new BigDecimal(text.substring(start, pos)));
      } else if (pos < text.length() && isLetter(text.charAt(pos))) {
        result = duration(start, digitsStart, negative);
      } else {
        result = integer(start, new BigInteger(text.substring(digitsStart, pos)), negative);
      }
    }
    if (pos < text.length() && (isIdentPart(text.charAt(pos)) || text.charAt(pos) == '.')) {
      throw malformed(start);
    }
    return result;
  }

  private Token integer(int start, BigInteger magnitude, boolean negative) {
    BigInteger v = negative ? magnitude.negate() : magnitude;
    if (v.compareTo(MIN_LONG) < 0 || v.compareTo(MAX_LONG) > 0) {
      throw errorAt(
          text, start, "integer " + text.substring(start, pos) + " does not fit in 64 bits");
    }
    return new Token(Kind.INT, text.substring(start, pos), start, v.longValue());
  }

  /**
   * A number followed by letters: a window such as {@code 100ms}. A bad one (unknown unit, not
   * positive, too long) carries the reason as its value instead of a Duration, so that the parser
   * can report it as a bad window where a window is expected, and as a misplaced token elsewhere.
   */
  private Token duration(int start, int digitsStart, boolean negative) {
    int digitsEnd = pos;
    while (pos < text.length() && isLetter(text.charAt(pos))) {
      pos++;
    }
    String all = text.substring(start, pos);
    String unit = text.substring(digitsEnd, pos);
    ChronoUnit u = UNITS.get(unit);
    BigInteger amount = new BigInteger(text.substring(digitsStart, digitsEnd));
    Object value;
    if (u == null) {
      value = "unknown unit '" + unit + "' in " + all + " (use ns, us, ms, s or m)";
    } else if (negative || amount.signum() == 0) {
      value = "a window must be positive: " + all;
    } else {
      try {
        value = Duration.of(amount.longValueExact(), u);
      } catch (ArithmeticException e) {
        value = "window " + all + " is too long";
      }
    }
    return new Token(Kind.DURATION, all, start, value);
  }

  private InvalidInputException malformed(int start) {
    int end = pos;
    while (end < text.length() && (isIdentPart(text.charAt(end)) || text.charAt(end) == '.')) {
      end++;
    }
    return errorAt(text, start, "malformed number '" + text.substring(start, end) + "'");
  }

  private void skipDigits() {
    while (pos < text.length() && isDigit(text.charAt(pos))) {
      pos++;
    }
  }

  /** A double-quoted constant with the escapes \" \\ \n \t \\uXXXX. */
  private Token string(int start) {
    StringBuilder sb = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= text.length() || text.charAt(pos) == '\n') {
        throw errorAt(text, start, "unterminated string constant");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        pos++;
        break;
      }
      if (c != '\\') {
        sb.append(c);
        pos++;
        continue;
      }
      int escape = pos;
      char e = pos + 1 < text.length() ? text.charAt(pos + 1) : ' ';
      pos += 2;
      switch (e) {
        case '"' -> sb.append('"');
        case '\\' -> sb.append('\\');
        case 'n' -> sb.append('\n');
        case 't' -> sb.append('\t');
        case 'u' -> sb.append(unicodeEscape(escape));
        default ->
            // The whole code point: half of a surrogate pair is no text a reader can show.
            throw errorAt(
                text,
                escape,
                "unknown escape '\\"
                    + (escape + 1 < text.length()
                        ? Character.toString(text.codePointAt(escape + 1))
                        : String.valueOf(e))
                    + "' (use \\\" \\\\ \\n \\t \\uXXXX)");
      }
    }
    String value = sb.toString();
    checkSurrogates(value, start);
    return new Token(Kind.STRING, text.substring(start, pos), start, value);
  }

  private char unicodeEscape(int escape) {
    if (pos + 4 > text.length()) {
      throw errorAt(text, escape, "\\u needs four hex digits");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(text.charAt(pos + i), 16);
      if (d < 0) {
        throw errorAt(text, escape, "\\u needs four hex digits");
      }
      v = v * 16 + d;
    }
    pos += 4;
    return (char) v;
  }

  private void checkSurrogates(String value, int start) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw errorAt(
            text,
            start,
            String.format("string constant has an unpaired surrogate \\u%04X", (int) c));
      }
    }
  }

  private static String show(char c) {
    return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isIdentStart(char c) {
    return isLetter(c) || c == '_';
  }

  private static boolean isIdentPart(char c) {
    return isIdentStart(c) || isDigit(c);
  }
}
