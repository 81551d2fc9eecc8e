package org.netpubsub.bench;

import java.util.concurrent.TimeUnit;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** Cost of building a validated event: the floor under every publish. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventBuildBenchmark {
  private final Schema schema =
      Schema.builder("quotes").intAttribute("price", 0, 1023).stringAttribute("symbol", 8).build();

  @Benchmark
  public Event build() {
    return Event.builder(schema).set("price", 512).set("symbol", "IBM").build();
  }
}
