package org.netpubsub.content.filter;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.StringAttribute;

/**
 * A filter typed against a schema: the abstract syntax of the filter language (a superset of Camus
 * Figure 1). Built by {@link FilterParser}; printed back by {@link FilterPrinter}.
 */
public sealed interface Filter {

  /** All operands hold; no operands means true. */
  record And(List<Filter> operands) implements Filter {
    public And {
      operands = List.copyOf(operands);
    }
  }

  /** Some operand holds; no operands means false. */
  record Or(List<Filter> operands) implements Filter {
    public Or {
      operands = List.copyOf(operands);
    }
  }

  record Not(Filter operand) implements Filter {}

  /** {@code true} or {@code false}. */
  record Constant(boolean value) implements Filter {}

  /** {@code attribute op value} on an int attribute. */
  record IntComparison(IntAttribute attribute, Comparison op, long value) implements Filter {}

  /** {@code attribute in [low, high]}: inclusive on both ends. */
  record IntRange(IntAttribute attribute, long low, long high) implements Filter {}

  /** {@code attribute op "value"} on a string attribute. */
  record StringComparison(StringAttribute attribute, StringOp op, String value) implements Filter {}

  /**
   * A stateful aggregate over a tumbling window, e.g. {@code avg(price) > 60 over 100ms}. {@code
   * argument} is null for {@code count()}. Parsed and typed here; evaluated by the compiler's
   * targets.
   */
  record Aggregate(
      AggregateFunction function,
      IntAttribute argument,
      Comparison op,
      BigDecimal threshold,
      Duration window)
      implements Filter {}

  /** Numeric relations. */
  enum Comparison {
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    EQ("=="),
    NE("!=");

    private final String symbol;

    Comparison(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }

    /** The relation that holds exactly when this one does not. */
    public Comparison negate() {
      return switch (this) {
        case LT -> GE;
        case LE -> GT;
        case GT -> LE;
        case GE -> LT;
        case EQ -> NE;
        case NE -> EQ;
      };
    }
  }

  /** String relations. */
  enum StringOp {
    EQ("=="),
    NE("!="),
    PREFIX("prefix"),
    SUFFIX("suffix"),
    CONTAINS("contains"),
    /** An MQTT topic filter ({@code a/+/c}, {@code a/#}) on a topic attribute. */
    MATCHES("matches");

    /** The relations of every string attribute ({@link #MATCHES} needs a topic attribute). */
    public static final List<StringOp> PLAIN = List.of(EQ, NE, PREFIX, SUFFIX, CONTAINS);

    private final String symbol;

    StringOp(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }
  }

  /** Aggregation functions over tumbling windows. */
  enum AggregateFunction {
    COUNT,
    SUM,
    AVG
  }
}
