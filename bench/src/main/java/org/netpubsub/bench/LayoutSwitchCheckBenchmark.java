package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.invariants.Violation;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.ContentFlows;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The invariant checker's share of an online layout switch (testbed/experiments/layout_switch.py,
 * without OVS; {@link LayoutSwitchScenario}): the check of the batch that installs the new layout's
 * flows beside the old ones and the guard, and of the batch that retires the old flows and the
 * guard. Nothing is taken, so every call checks the same (ms per batch).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LayoutSwitchCheckBenchmark {
  @Param({"1000"})
  public int subscriptions;

  private FlowInvariants installing;
  private FlowInvariants retiring;
  private Map<Long, FlowInvariants.Change> install;
  private Map<Long, FlowInvariants.Change> retire;

  @Setup
  public void setUp() {
    LayoutSwitchScenario s = LayoutSwitchScenario.of(subscriptions, 1);
    install = new TreeMap<>();
    retire = new TreeMap<>();
    s.newContent().forEach((d, l) -> install.put(d, change(List.of(), l)));
    for (long d : s.topology().switches()) {
      List<FlowEntry> old = new ArrayList<>(s.oldContent().get(d));
      old.addAll(s.guards().get(d));
      retire.put(d, change(old, List.of()));
    }
    installing = checker(s, false);
    retiring = checker(s, true);
    if (installing.check(install).isPresent() || retiring.check(retire).isPresent()) {
      throw new IllegalStateException("a layout switch's batches are refused");
    }
  }

  /** The checker's index before a batch: routes, old flows, guards (and the new flows). */
  private static FlowInvariants checker(LayoutSwitchScenario s, boolean withNew) {
    FlowInvariants c = new FlowInvariants(s.topology(), ContentFlows.EVENT_PORT);
    for (long d : s.topology().switches()) {
      List<FlowEntry> all = new ArrayList<>(s.base().get(d));
      all.addAll(s.oldContent().get(d));
      all.addAll(s.guards().get(d));
      if (withNew) {
        all.addAll(s.newContent().get(d));
      }
      c.put(d, all, List.of());
    }
    return c;
  }

  private static FlowInvariants.Change change(List<FlowEntry> out, List<FlowEntry> in) {
    return new FlowInvariants.Change(out, in, List.of(), List.of());
  }

  /** The new layout's flows added beside the old ones (make). */
  @Benchmark
  public Optional<Violation> install() {
    return installing.check(install);
  }

  /** The old flows and the guard deleted (break). */
  @Benchmark
  public Optional<Violation> retire() {
    return retiring.check(retire);
  }

  /** For a quick look without JMH: the flows and one timed check of each batch. */
  public static void main(String[] args) {
    LayoutSwitchCheckBenchmark b = new LayoutSwitchCheckBenchmark();
    b.subscriptions = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    b.setUp();
    SortedMap<Long, Integer> added = new TreeMap<>();
    b.install.forEach((d, c) -> added.put(d, c.added().size()));
    System.out.println("added per switch " + added);
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      b.install();
      long t1 = System.nanoTime();
      b.retire();
      long t2 = System.nanoTime();
      System.out.printf("install %.0f ms, retire %.0f ms%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6);
    }
  }
}
