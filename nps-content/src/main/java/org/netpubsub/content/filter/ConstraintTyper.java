package org.netpubsub.content.filter;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.filter.Filter.AggregateFunction;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.filter.Filter.StringOp;
import org.netpubsub.content.filter.Token.Kind;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.Topics;

/**
 * Types the atoms of a filter against a schema while it is parsed: resolves attribute names, checks
 * that operators and constants fit the attribute's type and domain, and reports each problem at the
 * token that causes it.
 */
final class ConstraintTyper {
  private final Schema schema;
  private final String text;

  ConstraintTyper(Schema schema, String text) {
    this.schema = schema;
    this.text = text;
  }

  /** The attribute a name token refers to. */
  Attribute attribute(Token name) {
    Optional<Attribute> a = schema.attribute(name.text());
    if (a.isPresent()) {
      return a.get();
    }
    String reason = "unknown attribute '" + name.text() + "'";
    Optional<String> close =
        NameSuggester.closest(
            name.text(), schema.attributes().stream().map(Attribute::name).toList());
    throw error(name, close.map(c -> reason + " (did you mean '" + c + "'?)").orElse(reason));
  }

  /** Rejects an operator that does not apply to the attribute's type. */
  void checkOperator(Token name, Token op) {
    Attribute a = attribute(name);
    boolean stringOp =
        op.kind() == Kind.PREFIX
            || op.kind() == Kind.SUFFIX
            || op.kind() == Kind.CONTAINS
            || op.kind() == Kind.MATCHES;
    boolean intOnly = op.kind() == Kind.IN || (Parser.isComparison(op.kind()) && !isEquality(op));
    if (a instanceof IntAttribute && stringOp) {
      throw error(op, a.name() + " is an int attribute; '" + op.text() + "' needs a string");
    }
    if (a instanceof StringAttribute && intOnly) {
      throw error(op, a.name() + " is a string attribute; '" + op.text() + "' needs an int");
    }
    if (op.kind() == Kind.MATCHES && !(a instanceof StringAttribute s && s.isTopic())) {
      throw error(op, a.name() + " is not a topic attribute; 'matches' needs a topic");
    }
  }

  /** {@code name op constant}, typed. */
  Filter comparison(Token name, Token op, Token constant) {
    Attribute a = attribute(name);
    return switch (a) {
      case IntAttribute i ->
          new Filter.IntComparison(i, comparison(op.kind()), intConstant(name, constant));
      case StringAttribute s when op.kind() == Kind.MATCHES -> topicFilter(s, constant);
      case StringAttribute s ->
          new Filter.StringComparison(s, stringOp(op.kind()), stringConstant(s, constant));
    };
  }

  /**
   * {@code topic matches "a/+/c"}: the MQTT filter, checked; without a wildcard it is {@code ==}
   * (one canonical form for one set of events).
   */
  private Filter topicFilter(StringAttribute s, Token constant) {
    String filter = stringConstant(s, constant);
    String problem = Topics.filterProblem(filter, s.levels());
    if (problem != null) {
      throw error(constant, s.name() + ": " + problem);
    }
    return new Filter.StringComparison(
        s, Topics.hasWildcard(filter) ? StringOp.MATCHES : StringOp.EQ, filter);
  }

  /** {@code name in [low, high]}, typed; {@code lowToken} is where an empty range is reported. */
  Filter range(Token name, Token lowToken, long low, long high) {
    if (low > high) {
      throw error(
          lowToken,
          "empty range [" + low + ", " + high + "]: the low bound must not exceed the high bound");
    }
    return new Filter.IntRange((IntAttribute) attribute(name), low, high);
  }

  /** An integer constant for the int attribute {@code name}, checked against its domain. */
  long intConstant(Token name, Token constant) {
    IntAttribute a = (IntAttribute) attribute(name);
    switch (constant.kind()) {
      case INT -> {
        long v = constant.longValue();
        if (!a.contains(v)) {
          throw error(
              constant,
              v + " is outside the domain of " + a.name() + " [" + a.min() + ", " + a.max() + "]");
        }
        return v;
      }
      case STRING ->
          throw error(
              constant, a.name() + " is an int attribute; " + constant.describe() + " is a string");
      default ->
          throw error(
              constant,
              a.name()
                  + " is an int attribute; expected an integer but found "
                  + constant.describe());
    }
  }

  private String stringConstant(StringAttribute a, Token constant) {
    String value =
        switch (constant.kind()) {
          case STRING -> constant.stringValue();
          // A bare word is a string constant, as in Camus' `stock == GOOGL`.
          case IDENT -> constant.text();
          case INT, DECIMAL, DURATION ->
              throw error(
                  constant,
                  a.name()
                      + " is a string attribute; "
                      + constant.text()
                      + " is not a string (quote it: \""
                      + constant.text()
                      + "\")");
          default ->
              throw error(
                  constant,
                  a.name()
                      + " is a string attribute; expected a string but found "
                      + constant.describe());
        };
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > a.maxLength()) {
      throw error(
          constant,
          "string constant "
              + constant.describe()
              + " is "
              + bytes
              + " bytes long; "
              + a.name()
              + " holds at most "
              + a.maxLength());
    }
    return value;
  }

  /** The argument of sum(...) or avg(...): an int attribute. */
  IntAttribute aggregateArgument(Token function, Token argument) {
    Attribute a = attribute(argument);
    if (!(a instanceof IntAttribute i)) {
      throw error(
          argument,
          function.text() + "(...) needs an int attribute; " + a.name() + " is a string attribute");
    }
    return i;
  }

  /** The constant an aggregate is compared with: an integer, or a decimal for sum and avg. */
  BigDecimal threshold(Token function, Token threshold) {
    boolean count = function.kind() == Kind.COUNT;
    if (threshold.kind() == Kind.INT || (threshold.kind() == Kind.DECIMAL && !count)) {
      return threshold.decimalValue();
    }
    throw error(
        threshold,
        (count
                ? "count() is compared with an integer"
                : function.text() + "(...) is compared with a number")
            + " but found "
            + threshold.describe());
  }

  /** The window of an aggregate: a positive duration with a unit. */
  void window(Token window) {
    if (window.kind() == Kind.DURATION) {
      if (window.durationValue() == null) {
        throw error(window, window.stringValue());
      }
      return;
    }
    String hint = window.kind() == Kind.INT ? " (a window needs a unit: ns, us, ms, s or m)" : "";
    throw error(window, "expected a window like 100ms but found " + window.describe() + hint);
  }

  Filter aggregate(Token function, Token argument, Token op, Token threshold, Token window) {
    AggregateFunction f =
        switch (function.kind()) {
          case COUNT -> AggregateFunction.COUNT;
          case SUM -> AggregateFunction.SUM;
          default -> AggregateFunction.AVG;
        };
    return new Filter.Aggregate(
        f,
        argument == null ? null : aggregateArgument(function, argument),
        comparison(op.kind()),
        threshold(function, threshold),
        window.durationValue());
  }

  private static boolean isEquality(Token op) {
    return op.kind() == Kind.EQ || op.kind() == Kind.NE;
  }

  private static Comparison comparison(Kind k) {
    return switch (k) {
      case LT -> Comparison.LT;
      case LE -> Comparison.LE;
      case GT -> Comparison.GT;
      case GE -> Comparison.GE;
      case EQ -> Comparison.EQ;
      case NE -> Comparison.NE;
      default -> throw new IllegalStateException("not a comparison: " + k);
    };
  }

  private static StringOp stringOp(Kind k) {
    return switch (k) {
      case EQ -> StringOp.EQ;
      case NE -> StringOp.NE;
      case PREFIX -> StringOp.PREFIX;
      case SUFFIX -> StringOp.SUFFIX;
      case CONTAINS -> StringOp.CONTAINS;
      case MATCHES -> StringOp.MATCHES;
      default -> throw new IllegalStateException("not a string operator: " + k);
    };
  }

  private InvalidInputException error(Token at, String reason) {
    return Lexer.errorAt(text, at.offset(), reason);
  }
}
