package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.OpenFlowError;
import org.netpubsub.network.openflow.SimulatedSwitch;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.EventEgress;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The simulated switch's flow table as the control-plane bench drives it: thousands of content
 * flows (16 priorities, one per dz length) in place, then one flow more added and deleted again (an
 * ADD and a strict DELETE), each with building the flow-mod from a dz as a configurator does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SimulatedSwitchBenchmark {
  @Param({"1000", "20000"})
  public int flows;

  private SimulatedSwitch sw;
  private FlowEntry extra;
  private final SortedSet<EventEgress> egresses =
      new TreeSet<>(List.of(EventEgress.towardsSwitch(1), EventEgress.towardsSwitch(3)));

  @Setup
  public void setUp() {
    sw = SimulatedSwitch.builder().ports(1, 2, 3, 4, 5, 6, 7, 8).build();
    Random random = new Random(1);
    Set<Dz> dzs = new HashSet<>();
    while (dzs.size() <= flows) {
      dzs.add(randomDz(random));
    }
    List<Dz> all = new ArrayList<>(dzs);
    for (Dz d : all.subList(1, all.size())) {
      sw.apply(FlowMod.add(ContentFlows.entry(d, egresses)));
    }
    extra = ContentFlows.entry(all.get(0), egresses);
  }

  /** One flow added, then deleted (strictly). */
  @Benchmark
  public Optional<OpenFlowError> addAndDelete() {
    sw.apply(FlowMod.add(extra));
    return sw.apply(FlowMod.deleteStrict(extra));
  }

  private static Dz randomDz(Random random) {
    int length = 1 + random.nextInt(16);
    StringBuilder bits = new StringBuilder();
    for (int i = 0; i < length; i++) {
      bits.append(random.nextBoolean() ? '1' : '0');
    }
    return Dz.parse(bits.toString());
  }
}
