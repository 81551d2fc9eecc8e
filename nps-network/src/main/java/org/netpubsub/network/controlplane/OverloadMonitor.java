package org.netpubsub.network.controlplane;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.content.index.Dz;

/**
 * SPA-LB's monitor (PLEROMA §IV-A 3): from periodic samples of the request queue lengths it decides
 * which partitions to migrate off overloaded configurators. Stateful only in the loads it has seen
 * (so that it can tell a rising overload from a spike); pure otherwise: the caller samples the
 * queues and carries the migrations out.
 *
 * <p>A configurator's load {@code l_i} is the sum of its partitions' queue lengths and {@code
 * l_avg} their mean over all configurators. Configurator {@code i} is overloaded when {@code l_avg
 * > 0}, {@code l_i / l_avg > threshold}, and — against thrashing — the overload grew strictly at
 * each of the last {@code risingSamples} sample-to-sample steps, either in load ({@code l_i(t-r) <
 * … < l_i(t)}) or in share ({@code q_i(t-r) < … < q_i(t)} for {@code q_i = l_i / l_avg}), with
 * {@code r = risingSamples}, so {@code r + 1} samples are needed before any migration. The share
 * counts too because when every queue drains the overloaded configurator's load falls while its
 * share keeps growing; the load counts too because a configurator holding all the load keeps a
 * constant share (n) however long its queues grow. Overloaded configurators are handled heaviest
 * first (ties: lowest index), at most one migration each per sample: their partitions heaviest
 * first (ties: dz order), skipping empty queues, the first whose queue the least-loaded
 * configurator (ties: lowest index) can take without becoming overloaded itself ({@code (l_min +
 * QL_p) / l_avg <= threshold}) moves there. A configurator's only partition never moves. Loads are
 * updated after each migration for the next decision of the same sample; the histories keep what
 * was sampled.
 */
public final class OverloadMonitor {
  /** Rising over two sample-to-sample steps: one jump alone never triggers a migration. */
  public static final int DEFAULT_RISING_SAMPLES = 2;

  /**
   * Move {@code partition}'s queue and all its future requests from one configurator to another.
   */
  public record Migration(Dz partition, int from, int to) {}

  private final int configurators;
  private final double threshold;
  private final int risingSamples;

  /** The sampled loads l_i, oldest first, at most {@code risingSamples + 1}. */
  private final Deque<double[]> loadHistory = new ArrayDeque<>();

  /** The sampled overload ratios l_i / l_avg, likewise. */
  private final Deque<double[]> ratioHistory = new ArrayDeque<>();

  private long migrations;

  public OverloadMonitor(int configurators, double threshold) {
    this(configurators, threshold, DEFAULT_RISING_SAMPLES);
  }

  public OverloadMonitor(int configurators, double threshold, int risingSamples) {
    if (configurators < 1) {
      throw new IllegalArgumentException("at least one configurator is needed: " + configurators);
    }
    if (!(threshold > 1) || Double.isInfinite(threshold)) {
      throw new IllegalArgumentException("the threshold must be finite and above 1: " + threshold);
    }
    if (risingSamples < 1) {
      throw new IllegalArgumentException("risingSamples must be at least 1: " + risingSamples);
    }
    this.configurators = configurators;
    this.threshold = threshold;
    this.risingSamples = risingSamples;
  }

  /**
   * Takes one sample: for each configurator (by index) the queue length of each partition it owns;
   * returns the migrations to perform now, in the order decided (possibly none).
   */
  public List<Migration> sample(List<Map<Dz, Integer>> queues) {
    long[] sampled = loads(queues);
    long total = 0;
    for (long l : sampled) {
      total += l;
    }
    double avg = (double) total / configurators;
    double[] ratios = new double[configurators];
    for (int c = 0; c < configurators && total > 0; c++) {
      ratios[c] = sampled[c] / avg;
    }
    double[] loadsNow = new double[configurators];
    for (int c = 0; c < configurators; c++) {
      loadsNow[c] = sampled[c];
    }
    remember(loadHistory, loadsNow);
    remember(ratioHistory, ratios);
    if (total == 0) {
      return List.of();
    }
    long[] loads = sampled.clone();
    List<Integer> byLoad = new ArrayList<>();
    for (int c = 0; c < configurators; c++) {
      byLoad.add(c);
    }
    byLoad.sort(Comparator.<Integer>comparingLong(c -> -sampled[c]).thenComparing(c -> c));
    List<Migration> decided = new ArrayList<>();
    for (int c : byLoad) {
      if (!(loads[c] / avg > threshold)
          || !(rising(loadHistory, c) || rising(ratioHistory, c))
          || queues.get(c).size() < 2) {
        continue;
      }
      int least = -1;
      for (int t = 0; t < configurators; t++) {
        if (t != c && (least < 0 || loads[t] < loads[least])) {
          least = t;
        }
      }
      List<Map.Entry<Dz, Integer>> heaviestFirst = new ArrayList<>(queues.get(c).entrySet());
      heaviestFirst.sort(
          Comparator.<Map.Entry<Dz, Integer>>comparingInt(e -> -e.getValue())
              .thenComparing(Map.Entry::getKey));
      for (Map.Entry<Dz, Integer> p : heaviestFirst) {
        int ql = p.getValue();
        if (ql > 0 && (loads[least] + ql) / avg <= threshold) {
          loads[c] -= ql;
          loads[least] += ql;
          decided.add(new Migration(p.getKey(), c, least));
          break;
        }
      }
    }
    migrations += decided.size();
    return Collections.unmodifiableList(decided);
  }

  /** The migrations decided since construction. */
  public long migrations() {
    return migrations;
  }

  public int configurators() {
    return configurators;
  }

  public double threshold() {
    return threshold;
  }

  public int risingSamples() {
    return risingSamples;
  }

  private void remember(Deque<double[]> history, double[] sample) {
    history.addLast(sample);
    if (history.size() > risingSamples + 1) {
      history.removeFirst();
    }
  }

  /** Strictly increasing for configurator c over the whole (full) history. */
  private boolean rising(Deque<double[]> history, int c) {
    if (history.size() < risingSamples + 1) {
      return false;
    }
    Iterator<double[]> it = history.iterator();
    double previous = it.next()[c];
    while (it.hasNext()) {
      double next = it.next()[c];
      if (next <= previous) {
        return false;
      }
      previous = next;
    }
    return true;
  }

  private long[] loads(List<Map<Dz, Integer>> queues) {
    if (queues.size() != configurators) {
      throw new IllegalArgumentException(
          "a sample of " + queues.size() + " configurators for a monitor of " + configurators);
    }
    Set<Dz> seen = new HashSet<>();
    long[] loads = new long[configurators];
    for (int c = 0; c < configurators; c++) {
      for (Map.Entry<Dz, Integer> e : queues.get(c).entrySet()) {
        if (!seen.add(e.getKey())) {
          throw new IllegalArgumentException(
              "partition " + e.getKey() + " is owned by more than one configurator");
        }
        if (e.getValue() == null || e.getValue() < 0) {
          throw new IllegalArgumentException(
              "partition " + e.getKey() + " has a negative queue length: " + e.getValue());
        }
        loads[c] += e.getValue();
      }
    }
    return loads;
  }
}
