package org.netpubsub.bench;

import java.util.concurrent.TimeUnit;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.ContentAddress;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Spatial indexing: event → dz → content address (once per publish), and filter → dz cover (once
 * per subscription), at short and full-address dz lengths.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IndexBenchmark {
  @Param({"24", "112"})
  public int length;

  @Param({"64"})
  public int maxCells;

  private SpatialIndex index;
  private Dnf simple;
  private Dnf complex;
  private final Event event = BenchSchemas.quote("IBM", 1600, 800);

  @Setup
  public void setUp() {
    index = new SpatialIndex(BenchSchemas.QUOTES, length);
    simple = Normalizer.toDnf(FilterParser.parse(BenchSchemas.QUOTES, BenchSchemas.SIMPLE));
    complex = Normalizer.toDnf(FilterParser.parse(BenchSchemas.QUOTES, BenchSchemas.COMPLEX));
  }

  @Benchmark
  public Dz eventDz() {
    return index.dz(event);
  }

  @Benchmark
  public ContentAddress eventAddress() {
    return index.address(event);
  }

  @Benchmark
  public DzSet coverSimple() {
    return index.cover(simple, maxCells);
  }

  @Benchmark
  public DzSet coverComplex() {
    return index.cover(complex, maxCells);
  }
}
