package org.netpubsub.bench;

import java.util.concurrent.TimeUnit;
import org.netpubsub.content.event.DecodeException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** The event wire codec: what every publisher and every receiving agent pays per event. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CodecBenchmark {
  private final EventCodec codec = new EventCodec(BenchSchemas.QUOTES);
  private final Event event = BenchSchemas.quote("IBM", 1600, 800);
  private final byte[] bytes = codec.encode(event);

  @Benchmark
  public byte[] encode() {
    return codec.encode(event);
  }

  @Benchmark
  public Event decode() throws DecodeException {
    return codec.decode(bytes);
  }
}
