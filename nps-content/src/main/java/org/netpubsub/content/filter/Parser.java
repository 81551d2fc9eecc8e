package org.netpubsub.content.filter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.filter.Token.Kind;
import org.netpubsub.content.schema.Schema;

/**
 * Recursive-descent parser of the filter grammar (see {@link FilterParser}); it asks a {@link
 * ConstraintTyper} to type every atom against the schema as soon as the atom is read.
 */
final class Parser {
  /** Longest accepted filter, in UTF-8 bytes. */
  static final int MAX_BYTES = 64 * 1024;

  /** Deepest accepted nesting of parentheses and negations; keeps the Java stack small. */
  static final int MAX_DEPTH = 200;

  private final String text;
  private final Lexer lexer;
  private final ConstraintTyper typer;
  private Token current;
  private int depth;

  private Parser(Schema schema, String text) {
    this.text = text;
    this.lexer = new Lexer(text);
    this.typer = new ConstraintTyper(schema, text);
  }

  static Filter parse(Schema schema, String text) {
    checkSize(text);
    return new Parser(schema, text).filter();
  }

  private static void checkSize(String text) {
    // Every char is at least one UTF-8 byte, so long texts are refused without encoding them.
    if (text.length() > MAX_BYTES || text.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      throw new InvalidInputException(
          "filter too long: more than " + MAX_BYTES + " bytes (64 KiB)");
    }
  }

  private Filter filter() {
    current = lexer.next();
    if (current.kind() == Kind.EOF) {
      throw error(current, "empty filter");
    }
    Filter f = or();
    if (current.kind() != Kind.EOF) {
      throw error(
          current, "expected '&&', '||' or the end of the filter but found " + current.describe());
    }
    return f;
  }

  // or := and (('||' | 'or') and)*
  private Filter or() {
    List<Filter> operands = new ArrayList<>();
    operands.add(and());
    while (current.kind() == Kind.OR) {
      advance();
      operands.add(and());
    }
    return operands.size() == 1 ? operands.get(0) : new Filter.Or(operands);
  }

  // and := unary (('&&' | 'and') unary)*
  private Filter and() {
    List<Filter> operands = new ArrayList<>();
    operands.add(unary());
    while (current.kind() == Kind.AND) {
      advance();
      operands.add(unary());
    }
    return operands.size() == 1 ? operands.get(0) : new Filter.And(operands);
  }

  // unary := ('!' | 'not') unary | primary
  private Filter unary() {
    if (current.kind() != Kind.NOT) {
      return primary();
    }
    enter();
    advance();
    Filter operand = unary();
    depth--;
    return new Filter.Not(operand);
  }

  // primary := '(' or ')' | 'true' | 'false' | constraint | aggregate
  private Filter primary() {
    Token t = current;
    switch (t.kind()) {
      case LPAREN -> {
        enter();
        advance();
        Filter inner = or();
        expect(Kind.RPAREN, "')'");
        depth--;
        return inner;
      }
      case TRUE, FALSE -> {
        advance();
        return new Filter.Constant(t.kind() == Kind.TRUE);
      }
      case COUNT, SUM, AVG -> {
        return aggregate();
      }
      case IDENT -> {
        return constraint();
      }
      default ->
          throw error(
              t, "expected a constraint, '(', '!', 'true' or 'false' but found " + t.describe());
    }
  }

  // constraint := name op constant | name 'in' '[' int ',' int ']'
  private Filter constraint() {
    Token name = current;
    typer.attribute(name);
    advance();
    Token op = current;
    switch (op.kind()) {
      case LT, LE, GT, GE, EQ, NE, PREFIX, SUFFIX, CONTAINS, MATCHES -> {
        typer.checkOperator(name, op);
        advance();
        Token constant = current;
        Filter atom = typer.comparison(name, op, constant);
        advance();
        return atom;
      }
      case IN -> {
        typer.checkOperator(name, op);
        advance();
        expect(Kind.LBRACKET, "'['");
        Token low = current;
        long lo = typer.intConstant(name, low);
        advance();
        expect(Kind.COMMA, "','");
        Token high = current;
        long hi = typer.intConstant(name, high);
        advance();
        expect(Kind.RBRACKET, "']'");
        return typer.range(name, low, lo, hi);
      }
      default ->
          throw error(
              op,
              "expected an operator (<, <=, >, >=, ==, !=, in, prefix, suffix, contains, matches) after '"
                  + name.text()
                  + "' but found "
                  + op.describe());
    }
  }

  // aggregate := ('count' '(' ')' | ('sum' | 'avg') '(' name ')') op number 'over' duration
  private Filter aggregate() {
    Token function = current;
    advance();
    expect(Kind.LPAREN, "'('");
    Token argument = null;
    if (function.kind() != Kind.COUNT) {
      argument = current;
      if (argument.kind() != Kind.IDENT) {
        throw error(
            argument,
            "expected an int attribute in "
                + function.text()
                + "(...) but found "
                + argument.describe());
      }
      typer.aggregateArgument(function, argument);
      advance();
    }
    expect(Kind.RPAREN, "')'");
    Token op = current;
    if (!isComparison(op.kind())) {
      throw error(
          op,
          "expected a comparison (<, <=, >, >=, ==, !=) after "
              + function.text()
              + "(...) but found "
              + op.describe());
    }
    advance();
    Token threshold = current;
    typer.threshold(function, threshold);
    advance();
    if (current.kind() != Kind.OVER) {
      throw error(
          current,
          "expected 'over' and a window (e.g. over 100ms) but found " + current.describe());
    }
    advance();
    Token window = current;
    typer.window(window);
    advance();
    return typer.aggregate(function, argument, op, threshold, window);
  }

  static boolean isComparison(Kind k) {
    return switch (k) {
      case LT, LE, GT, GE, EQ, NE -> true;
      default -> false;
    };
  }

  private void expect(Kind kind, String shown) {
    if (current.kind() != kind) {
      throw error(current, "expected " + shown + " but found " + current.describe());
    }
    advance();
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw error(current, "filter nests deeper than " + MAX_DEPTH + " levels");
    }
  }

  private void advance() {
    current = lexer.next();
  }

  private InvalidInputException error(Token at, String reason) {
    return Lexer.errorAt(text, at.offset(), reason);
  }
}
