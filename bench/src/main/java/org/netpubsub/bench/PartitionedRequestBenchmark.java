package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import org.netpubsub.bench.controller.ControlPlaneBenchmark;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.pleroma.ConfigurationDelta;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A configurator's work per request in {@code nps bench control-plane}, without threads or queues:
 * the bench's workload (fat tree k=8, 4 publishers advertising everything, 2000 standing
 * subscriptions of the PLEROMA model) on 64 partitions, each with its CP-config; one operation is a
 * new subscription and its withdrawal (two requests), split into partial requests. {@code
 * configure} applies the parts to the CP-configs; {@code flowMods} also builds their flow-mods;
 * {@code switches} also applies those to simulated switches (the bench's zero-latency switches).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PartitionedRequestBenchmark {
  @Param({"uniform", "zipf"})
  public String model;

  private static final int STANDING = 2000;
  private Partitions partitions;
  private final Map<Dz, Configurator> configs = new HashMap<>();
  private SimulatedNetwork switches;
  private List<ControlRequest> extras;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    var w = ControlPlaneBenchmark.workload(model, 8, 64, 4, 2 * STANDING, 2 * STANDING, 16, 8, 1);
    partitions = Partitions.uniform(64);
    switches = SimulatedNetwork.of(w.topology());
    for (Dz p : partitions.all()) {
      configs.put(p, Configurator.on(w.topology()));
    }
    w.advertisements().forEach(this::apply);
    w.requests().subList(0, STANDING).forEach(this::apply);
    extras = new ArrayList<>(w.requests().subList(STANDING, 2 * STANDING));
  }

  @Benchmark
  public int configure() {
    ControlRequest s = extras.get(next++ % extras.size());
    int changes = 0;
    for (ConfigurationDelta d : configure(s)) {
      changes += d.changes().size();
    }
    for (ConfigurationDelta d : configure(s.withdrawal())) {
      changes += d.changes().size();
    }
    return changes;
  }

  @Benchmark
  public int flowMods() {
    ControlRequest s = extras.get(next++ % extras.size());
    int mods = 0;
    for (ConfigurationDelta d : configure(s)) {
      mods += d.flowModCount();
    }
    for (ConfigurationDelta d : configure(s.withdrawal())) {
      mods += d.flowModCount();
    }
    return mods;
  }

  @Benchmark
  public int switches() {
    ControlRequest s = extras.get(next++ % extras.size());
    return apply(s) + apply(s.withdrawal());
  }

  /** Each part on its partition's CP-config: the deltas. */
  private List<ConfigurationDelta> configure(ControlRequest r) {
    SortedMap<Dz, DzSet> parts = partitions.split(r.cells());
    List<ConfigurationDelta> out = new ArrayList<>(parts.size());
    parts.forEach((p, cells) -> out.add(r.withCells(cells).applyTo(configs.get(p))));
    return out;
  }

  /** Configures and applies the flow-mods to the switches: how many. */
  private int apply(ControlRequest r) {
    int n = 0;
    for (ConfigurationDelta d : configure(r)) {
      for (Map.Entry<Long, List<FlowMod>> e : d.flowMods().entrySet()) {
        for (FlowMod fm : e.getValue()) {
          if (switches.apply(e.getKey(), fm).isPresent()) {
            throw new IllegalStateException("the switch refused " + fm);
          }
          n++;
        }
      }
    }
    return n;
  }
}
