package org.netpubsub.bench;

import java.util.concurrent.TimeUnit;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Filter evaluation on an event (the receiver's exact check against false positives), on the typed
 * AST and on the normal form; and the one-off cost of parsing and normalizing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FilterBenchmark {
  @Param({"simple", "complex"})
  public String filter;

  private String text;
  private Filter ast;
  private Dnf dnf;
  private final Event matching = BenchSchemas.quote("IBM", 1600, 800);
  private final Event missing = BenchSchemas.quote("MSFT", 50, 7);

  @Setup
  public void setUp() {
    text = filter.equals("simple") ? BenchSchemas.SIMPLE : BenchSchemas.COMPLEX;
    ast = FilterParser.parse(BenchSchemas.QUOTES, text);
    dnf = Normalizer.toDnf(ast);
  }

  @Benchmark
  public int evaluateAst() {
    return (FilterEvaluator.matches(ast, matching) ? 1 : 0)
        + (FilterEvaluator.matches(ast, missing) ? 2 : 0);
  }

  @Benchmark
  public int evaluateDnf() {
    return (FilterEvaluator.matches(dnf, matching) ? 1 : 0)
        + (FilterEvaluator.matches(dnf, missing) ? 2 : 0);
  }

  @Benchmark
  public Dnf parseAndNormalize() {
    return Normalizer.toDnf(FilterParser.parse(BenchSchemas.QUOTES, text));
  }
}
