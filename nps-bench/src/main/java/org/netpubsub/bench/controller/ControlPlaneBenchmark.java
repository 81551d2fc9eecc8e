package org.netpubsub.bench.controller;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.netpubsub.bench.stats.Latencies;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.UniformModel;
import org.netpubsub.content.workload.WorkloadModel;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.content.workload.ZipfModel;
import org.netpubsub.controller.controlplane.ControlPlane;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.controlplane.ControlPlaneSettings.Balancing;
import org.netpubsub.controller.controlplane.RequestDone;
import org.netpubsub.controller.controlplane.SimulatedSwitches;
import org.netpubsub.network.camus.FatTree;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.PartitionAssignment;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.topology.Topology;

/**
 * {@code nps bench control-plane}: PLEROMA's scaled control plane (§V-C, Figure 8g–l) on simulated
 * switches. Subscribers on a fat tree issue subscriptions and unsubscriptions (uniform or Zipf
 * filters of the PLEROMA models); a few publishers advertise the whole event space first, so every
 * subscription sets up paths. A run submits the stream either all at once (throughput) or at a
 * Poisson rate (latency) and measures until every request is acknowledged.
 */
public final class ControlPlaneBenchmark {
  private ControlPlaneBenchmark() {}

  /** The requests of one experiment, computed once and reused by every run. */
  public record Workload(
      String model,
      Topology topology,
      List<ControlRequest> advertisements,
      List<ControlRequest> requests) {}

  /** One run's settings. {@code rate} 0 submits everything at once. */
  public record Run(
      int configurators,
      int partitions,
      Balancing balancing,
      int sliceSize,
      double rate,
      long ackDelayMicros,
      double updatesPerSecond) {}

  /**
   * What one run measured; latencies from submission to the last part's acknowledgement. {@code
   * cpuMicrosPerRequest} is the whole process's CPU time over the run (configurators, submitter,
   * GC) per request, -1 where the JVM does not tell: on a shared machine it varies far less than
   * the throughput, and cores divided by it bounds the throughput of an idle machine.
   */
  public record Result(
      Run run,
      String model,
      int requests,
      double seconds,
      double throughput,
      double meanLatencyMs,
      double p50LatencyMs,
      double p99LatencyMs,
      double maxLatencyMs,
      long flowMods,
      long migrations,
      long resyncs,
      int flows,
      long switchErrors,
      double cpuMicrosPerRequest) {}

  /**
   * The workload: {@code subscribers} hosts spread over a k-ary fat tree, {@code publishers} more
   * advertising everything, and {@code requests} requests that subscribe until {@code standing}
   * subscriptions stand and then alternate a withdrawal of a random standing one with a new one.
   * Filters come from the model's seeded workload; each is covered by at most {@code maxCells}
   * cells of a {@code dzLength}-bit index.
   */
  public static Workload workload(
      String model,
      int fatTreeK,
      int subscribers,
      int publishers,
      int requests,
      int standing,
      int dzLength,
      int maxCells,
      long seed) {
    Topology topology = FatTree.of(fatTreeK);
    int hosts = topology.hosts().size();
    if (subscribers + publishers > hosts) {
      throw new IllegalArgumentException(
          "a fat tree of k=" + fatTreeK + " has " + hosts + " hosts, fewer than asked for");
    }
    IntSpace space = IntSpace.defaults();
    WorkloadModel m =
        switch (model) {
          case "uniform" -> new UniformModel(space);
          case "zipf" -> new ZipfModel(space);
          default -> throw new IllegalArgumentException("model must be uniform or zipf: " + model);
        };
    int distinct = Math.min(requests, 20_000);
    var generated =
        m.generate(
            new WorkloadSpec(seed, distinct, 0, subscribers, m.defaultAssignment(), Arrival.NONE));
    SpatialIndex index = new SpatialIndex(generated.schema(), dzLength);
    List<DzSet> covers = new ArrayList<>(distinct);
    List<Integer> owners = new ArrayList<>(distinct);
    for (var s : generated.subscriptions()) {
      covers.add(
          index.cover(
              Normalizer.toDnf(FilterParser.parse(generated.schema(), s.filter())), maxCells));
      owners.add(Integer.parseInt(s.host().orElseThrow().substring(1)) - 1);
    }
    // subscribers and publishers spread evenly over the tree, never sharing a host
    List<Ipv6Address> addresses = new ArrayList<>(topology.hosts().keySet());
    List<Ipv6Address> subscriberHosts = new ArrayList<>();
    java.util.Set<Integer> used = new java.util.HashSet<>();
    for (int j = 0; j < subscribers; j++) {
      int h = (int) ((long) j * hosts / subscribers);
      used.add(h);
      subscriberHosts.add(addresses.get(h));
    }
    List<ControlRequest> ads = new ArrayList<>();
    for (int p = 0; p < publishers; p++) {
      int h = (int) ((long) p * hosts / publishers + hosts / (2 * publishers)) % hosts;
      while (!used.add(h)) {
        h = (h + 1) % hosts;
      }
      ads.add(ControlRequest.advertise("a" + p, addresses.get(h), DzSet.ALL));
    }
    Random random = new Random(seed);
    List<ControlRequest> live = new ArrayList<>();
    List<ControlRequest> out = new ArrayList<>(requests);
    int next = 0;
    while (out.size() < requests) {
      if (live.size() >= standing && (out.size() % 2 == 0)) {
        ControlRequest gone = live.set(random.nextInt(live.size()), live.get(live.size() - 1));
        live.remove(live.size() - 1);
        out.add(gone.withdrawal());
        continue;
      }
      int f = next % distinct;
      ControlRequest s =
          ControlRequest.subscribe(
              "s" + next, subscriberHosts.get(owners.get(f) % subscribers), 7073, covers.get(f));
      next++;
      live.add(s);
      out.add(s);
    }
    return new Workload(model, topology, ads, out);
  }

  /**
   * Runs the first {@code requests} of the workload once and forgets the result, so the measured
   * runs meet compiled code rather than the interpreter (the JIT is process-wide).
   */
  public static void warmUp(Workload w, Run r, int requests, long seed)
      throws InterruptedException {
    var prefix = w.requests().subList(0, Math.min(requests, w.requests().size()));
    run(new Workload(w.model(), w.topology(), w.advertisements(), prefix), r, seed, done -> {});
  }

  /** Runs the workload once; {@code progress} hears the count of completed requests. */
  public static Result run(Workload w, Run r, long seed, LongConsumer progress)
      throws InterruptedException {
    Partitions partitions = Partitions.uniform(r.partitions());
    ControlPlaneSettings settings =
        ControlPlaneSettings.of(r.configurators(), partitions)
            .withBalancing(r.balancing())
            .withSliceSize(r.sliceSize());
    try (SimulatedSwitches switches =
            new SimulatedSwitches(w.topology(), r.ackDelayMicros() * 1000, r.updatesPerSecond());
        ControlPlane plane =
            new ControlPlane(
                w.topology(), settings, switches, assignment(w, r, partitions, seed))) {
      List<CompletableFuture<RequestDone>> ads = new ArrayList<>();
      w.advertisements().forEach(a -> ads.add(plane.submit(a)));
      ads.forEach(CompletableFuture::join);
      long modsBefore = plane.flowModsSent();

      int n = w.requests().size();
      long[] latencies = new long[n];
      List<CompletableFuture<RequestDone>> done = new ArrayList<>(n);
      AtomicLong completed = new AtomicLong();
      Random arrivals = new Random(seed ^ 0x5eed);
      long cpuStart = processCpuNanos();
      long start = System.nanoTime();
      long due = start;
      for (int i = 0; i < n; i++) {
        if (r.rate() > 0) {
          due += (long) (-Math.log(1 - arrivals.nextDouble()) / r.rate() * 1e9);
          while (System.nanoTime() < due) {
            LockSupport.parkNanos(due - System.nanoTime());
          }
        }
        int slot = i;
        done.add(
            plane
                .submit(w.requests().get(i))
                .thenApply(
                    d -> {
                      latencies[slot] = d.latencyNanos();
                      completed.incrementAndGet();
                      return d;
                    }));
        if ((i & 4095) == 0) {
          progress.accept(completed.get());
        }
      }
      for (CompletableFuture<RequestDone> d : done) {
        while (!d.isDone()) {
          progress.accept(completed.get());
          try {
            d.get(200, java.util.concurrent.TimeUnit.MILLISECONDS);
          } catch (java.util.concurrent.TimeoutException
              | java.util.concurrent.ExecutionException e) {
            if (e instanceof java.util.concurrent.ExecutionException) {
              throw new IllegalStateException("request failed", e.getCause());
            }
          }
        }
      }
      long end = System.nanoTime();
      long cpuEnd = processCpuNanos();
      double seconds = (end - start) / 1e9;
      Latencies l = Latencies.of(latencies);
      return new Result(
          r,
          w.model(),
          n,
          seconds,
          n / seconds,
          Arrays.stream(latencies).average().orElse(0) / 1e6,
          l.percentileMillis(0.50, 0),
          l.percentileMillis(0.99, 0),
          l.percentileMillis(1.0, 0),
          plane.flowModsSent() - modsBefore,
          plane.migrations(),
          plane.resyncs(),
          plane.flowCount(),
          switches.errors(),
          cpuStart < 0 || cpuEnd < 0 ? -1 : (cpuEnd - cpuStart) / 1e3 / n);
    }
  }

  /** The CPU time of every thread of this process so far, or -1 if the JVM does not tell. */
  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  /**
   * SPA deals the partitions out at random (seeded; the paper's naive assignment). SPA-LB starts
   * from the greedy assignment by popularity (§IV-A 2), the history being the first fifth of the
   * stream, and then migrates.
   */
  private static SortedMap<Dz, Integer> assignment(
      Workload w, Run r, Partitions partitions, long seed) {
    if (r.balancing() == Balancing.SPA) {
      return PartitionAssignment.random(partitions.all(), r.configurators(), seed);
    }
    Map<Dz, Long> counts = new HashMap<>();
    partitions.all().forEach(p -> counts.put(p, 0L));
    for (ControlRequest q : w.requests().subList(0, w.requests().size() / 5)) {
      partitions.split(q.cells()).keySet().forEach(p -> counts.merge(p, 1L, Long::sum));
    }
    return PartitionAssignment.greedy(PartitionAssignment.popularity(counts), r.configurators());
  }
}
