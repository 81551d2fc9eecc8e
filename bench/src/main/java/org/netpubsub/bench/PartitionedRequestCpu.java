package org.netpubsub.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * {@link PartitionedRequestBenchmark} measured by the thread's CPU time and allocated bytes per
 * operation instead of wall time: on a machine shared with other jobs, wall time mostly measures
 * them. Prints one line: the median, least and most µs of CPU over 7 rounds, and bytes per
 * operation (which does not depend on the load at all).
 *
 * <pre>java -cp bench/target/benchmarks.jar org.netpubsub.bench.PartitionedRequestCpu uniform
 * [configure|flowMods|switches]</pre>
 */
public final class PartitionedRequestCpu {
  private static final int OPERATIONS = 4000;
  private static final int WARM_UP_ROUNDS = 5;
  private static final int ROUNDS = 7;

  private PartitionedRequestCpu() {}

  public static void main(String[] args) {
    PartitionedRequestBenchmark b = new PartitionedRequestBenchmark();
    b.model = args.length > 0 ? args[0] : "uniform";
    String which = args.length > 1 ? args[1] : "switches";
    b.setUp();
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long self = Thread.currentThread().threadId();
    for (int i = 0; i < WARM_UP_ROUNDS; i++) {
      run(b, which);
    }
    double[] micros = new double[ROUNDS];
    long allocated = 0;
    for (int i = 0; i < ROUNDS; i++) {
      long bytes = threads.getThreadAllocatedBytes(self);
      long cpu = threads.getCurrentThreadCpuTime();
      run(b, which);
      micros[i] = (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / OPERATIONS;
      allocated += threads.getThreadAllocatedBytes(self) - bytes;
    }
    Arrays.sort(micros);
    System.out.printf(
        "%s %s: %.2f µs CPU/op (median of %d; %.2f–%.2f), %.0f bytes/op%n",
        b.model,
        which,
        micros[ROUNDS / 2],
        ROUNDS,
        micros[0],
        micros[ROUNDS - 1],
        allocated / (double) ROUNDS / OPERATIONS);
  }

  private static long run(PartitionedRequestBenchmark b, String which) {
    long sum = 0;
    for (int i = 0; i < OPERATIONS; i++) {
      sum +=
          switch (which) {
            case "configure" -> b.configure();
            case "flowMods" -> b.flowMods();
            case "switches" -> b.switches();
            default -> throw new IllegalArgumentException("no benchmark " + which);
          };
    }
    return sum;
  }
}
