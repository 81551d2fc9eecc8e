package org.netpubsub.controller.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.netpubsub.controller.southbound.DesiredStateStore;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
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
 * The flow service's store-and-publish step on the controller loop ({@link OwnedStates#apply}, the
 * invariant checker off) for one request that changes one switch by {@code mods} content flows,
 * while the switch already holds {@code flows} content flows: whether the step costs per change or
 * per entry the switch holds. Each call adds the batch, the next removes it, so the switch's state
 * stays the same size. In this package because {@link OwnedStates} is package-private; it uses only
 * the constructor and {@code register}/{@code replace}/{@code apply}, so the same benchmark runs
 * against older builds (scripts/bench-alternate).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class OwnedStatesBenchmark {
  private static final long DPID = 1;

  @Param({"100", "10000"})
  public int flows;

  @Param({"3"})
  public int mods;

  private OwnedStates states;
  private Map<Long, List<SwitchMod>> add;
  private Map<Long, List<SwitchMod>> remove;
  private boolean added;

  @Setup
  public void setUp() {
    DesiredStateStore published = new DesiredStateStore();
    states = new OwnedStates(published, false);
    states.register(Owner.PUBSUB_CONTENT);
    List<FlowEntry> held = new ArrayList<>();
    for (int i = 0; i < flows; i++) {
      held.add(flow(i));
    }
    states.replace(Owner.PUBSUB_CONTENT, DPID, held, List.of());
    if (published.get(DPID).orElseThrow().flows().size() != flows) {
      throw new IllegalStateException("the held flows must have distinct matches");
    }
    List<SwitchMod> a = new ArrayList<>();
    List<SwitchMod> r = new ArrayList<>();
    for (int i = 0; i < mods; i++) {
      FlowEntry e = flow(flows + i);
      a.add(new SwitchMod.Flow(FlowMod.add(e)));
      r.add(new SwitchMod.Flow(FlowMod.deleteStrict(e)));
    }
    add = Map.of(DPID, a);
    remove = Map.of(DPID, r);
  }

  @Benchmark
  public boolean applyBatch() {
    states.apply(Owner.PUBSUB_CONTENT, added ? remove : add);
    added = !added;
    return added;
  }

  /** A content flow: the {@code i}th /48 content address to one port (each its own match). */
  private static FlowEntry flow(int i) {
    String prefix = String.format("ff0e:%x:%x::/48", 0x8000 | (i >>> 16 & 0x7fff), i & 0xffff);
    return FlowEntry.builder()
        .priority(ContentFlows.PRIORITY_BASE + 32)
        .cookie(ContentFlows.COOKIE)
        .match(Match.builder().udp6().udpDst(ContentFlows.EVENT_PORT).ipv6Dst(prefix).build())
        .apply(new Action.Output(1 + i % 4))
        .build();
  }
}
