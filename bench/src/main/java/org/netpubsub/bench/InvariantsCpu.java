package org.netpubsub.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The invariant checker's benchmarks ({@link CamusInvariantsBenchmark}, {@link
 * InvariantsBenchmark}) measured by the thread's CPU time per check instead of wall time: on a
 * machine shared with other jobs, wall time mostly measures them. Prints one line: the median,
 * least and most ms of CPU per check over the measured checks, and µs per flow-mod.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.netpubsub.bench.InvariantsCpu camus K SUBSCRIPTIONS
 * [CHECKS]
 * java -cp bench/target/benchmarks.jar org.netpubsub.bench.InvariantsCpu pleroma K [CHECKS]</pre>
 *
 * (PLEROMA: the content flow added, one flow-mod, and the reroute, two. Camus: the subscription's
 * batch checked and nothing taken, the refused one, the first again after that batch and its
 * undoing were taken (as a running service's checker meets it), then successive subscriptions'
 * batches each offered and taken, as a running service meets them.) Half as many checks as measured
 * are run first to warm up.
 */
public final class InvariantsCpu {
  private InvariantsCpu() {}

  public static void main(String[] args) {
    String which = args[0];
    int k = Integer.parseInt(args[1]);
    if (which.equals("camus")) {
      CamusInvariantsBenchmark b = new CamusInvariantsBenchmark();
      b.k = k;
      b.subscriptions = Integer.parseInt(args[2]);
      int checks = args.length > 3 ? Integer.parseInt(args[3]) : 5;
      long setUp = System.nanoTime();
      b.setUp();
      System.out.printf("set-up %.1f s wall%n", (System.nanoTime() - setUp) / 1e9);
      report(
          "camus k=" + k + " subscriptions=" + b.subscriptions + " accepted",
          b.mods,
          checks,
          b::subscriptionBatch);
      report("camus k=" + k + " refused (reflecting)", 1, checks, b::reflectingRefused);
      // the same batch after the same switches' previous batch was taken (the checker's state then)
      b.warm();
      report(
          "camus k=" + k + " subscriptions=" + b.subscriptions + " accepted, after a taken batch",
          b.mods,
          checks,
          b::subscriptionBatch);
      // then batches taken one after another (the checker's state carries over between them)
      int mods = b.prepareSuccessive(checks + Math.max(1, checks / 2));
      report(
          "camus k=" + k + " successive accepted (taken, mean flow-mods)",
          mods,
          checks,
          b::successiveBatch);
    } else if (which.equals("pleroma")) {
      InvariantsBenchmark b = new InvariantsBenchmark();
      b.k = k;
      int checks = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
      b.setUp();
      report("pleroma k=" + k + " contentFlowAdd", 1, checks, b::contentFlowAdd);
      report("pleroma k=" + k + " unicastReroute", 2, checks, b::unicastReroute);
      report("pleroma k=" + k + " routeRemovedRefused", 1, checks, b::routeRemovedRefused);
    } else {
      throw new IllegalArgumentException("camus or pleroma, not " + which);
    }
  }

  private static void report(String name, int mods, int checks, Supplier<?> check) {
    var threads = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < Math.max(1, checks / 2); i++) {
      check.get();
    }
    double[] ms = new double[checks];
    for (int i = 0; i < checks; i++) {
      long cpu = threads.getCurrentThreadCpuTime();
      check.get();
      ms[i] = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
    }
    Arrays.sort(ms);
    double median = ms[checks / 2];
    System.out.printf(
        "%s: %.3f ms CPU/check (median of %d; %.3f-%.3f), %d flow-mods, %.1f µs/flow-mod%n",
        name, median, checks, ms[0], ms[checks - 1], mods, median * 1e3 / mods);
  }
}
