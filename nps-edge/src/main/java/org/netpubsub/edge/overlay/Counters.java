package org.netpubsub.edge.overlay;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Named thread-safe counters of one overlay broker ({@code dropped.<reason>} for drops). */
public final class Counters {
  private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

  public void add(String name) {
    counts.computeIfAbsent(name, k -> new LongAdder()).increment();
  }

  public void add(String name, long n) {
    counts.computeIfAbsent(name, k -> new LongAdder()).add(n);
  }

  public void drop(String reason) {
    add("dropped." + reason);
  }

  public long get(String name) {
    LongAdder a = counts.get(name);
    return a == null ? 0 : a.sum();
  }

  public Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /**
   * CPU time so far of the live threads whose names end with {@code suffix}, in ns (-1: unknown).
   */
  static long threadCpuNanos(String suffix) {
    var mx = java.lang.management.ManagementFactory.getThreadMXBean();
    if (!mx.isThreadCpuTimeSupported()) {
      return -1;
    }
    long sum = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().endsWith(suffix)) {
        sum += Math.max(0, mx.getThreadCpuTime(t.threadId()));
      }
    }
    return sum;
  }
}
