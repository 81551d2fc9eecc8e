package org.netpubsub.bench;

import java.util.concurrent.TimeUnit;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.UniformModel;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.network.pleroma.Advertisement;
import org.netpubsub.network.pleroma.ConfigurationDelta;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.Subscription;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * PLEROMA's configurator (Algorithm 1) with many subscriptions in place: one subscription more, and
 * an advertisement of everything (pairing it with every subscription) followed by its withdrawal.
 * Uniform workload, dz length 12, 16 cells per subscription, on a 7-switch tree with 8 hosts (paths
 * of up to 5 switches, as on PLEROMA's test bed).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConfiguratorBenchmark {
  @Param({"1000", "16000"})
  public int subscriptions;

  private Configurator configurator;
  private Subscription extra;
  private final Advertisement everything = new Advertisement("a-all", host(1), DzSet.ALL);

  @Setup
  public void setUp() {
    Workload w =
        new UniformModel(IntSpace.defaults())
            .generate(
                new WorkloadSpec(
                    1, subscriptions + 1, 0, 8, HostAssignment.ROUND_ROBIN, Arrival.NONE));
    SpatialIndex index = new SpatialIndex(w.schema(), 12);
    configurator = Configurator.on(tree());
    configurator.advertise(new Advertisement("a-0", host(1), DzSet.ALL));
    for (int i = 0; i <= subscriptions; i++) {
      var s = w.subscriptions().get(i);
      DzSet cells = index.cover(Normalizer.toDnf(FilterParser.parse(w.schema(), s.filter())), 16);
      if (i < subscriptions) {
        int h = Integer.parseInt(s.host().orElseThrow().substring(1));
        configurator.subscribe(new Subscription("s-" + i, host(h), 7073, cells));
      } else {
        // on h8: the longest path from the publisher on h1
        extra = new Subscription("s-extra", host(8), 7073, cells);
      }
    }
  }

  /** Subscribing one more subscriber (paired with the standing advertisement), then withdrawing. */
  @Benchmark
  public ConfigurationDelta subscribeAndUnsubscribe() {
    configurator.subscribe(extra);
    return configurator.unsubscribe(extra.id());
  }

  /** An advertisement overlapping every subscription, then its withdrawal. */
  @Benchmark
  public ConfigurationDelta advertiseAndUnadvertise() {
    configurator.advertise(everything);
    return configurator.unadvertise(everything.id());
  }

  /** Root 1; aggregation 2, 3; edge 4..7, two hosts each (h1, h2 on 4; …; h7, h8 on 7). */
  private static Topology tree() {
    Topology t = Topology.EMPTY;
    t = t.addLink(Link.of(1, 1, 2, 1)).addLink(Link.of(1, 2, 3, 1));
    t = t.addLink(Link.of(2, 2, 4, 1)).addLink(Link.of(2, 3, 5, 1));
    t = t.addLink(Link.of(3, 2, 6, 1)).addLink(Link.of(3, 3, 7, 1));
    for (int h = 1; h <= 8; h++) {
      long edge = 4 + (h - 1) / 2;
      t = t.addHost(new Host(host(h), new MacAddress(h), new SwitchPort(edge, 2 + (h - 1) % 2)));
    }
    return t;
  }

  private static Ipv6Address host(int i) {
    return new Ipv6Address(0x20010db800000000L, i);
  }
}
