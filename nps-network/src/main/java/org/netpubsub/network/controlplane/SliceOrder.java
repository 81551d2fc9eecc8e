package org.netpubsub.network.controlplane;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Reorders a slice of queued control requests to save flow operations (PLEROMA §IV-C). Only a slice
 * is sorted, never the whole queue, so that fine requests cannot starve.
 *
 * <p>The slice is cut into maximal runs of one kind; runs keep their order, since reordering an
 * addition with a withdrawal changes the outcome. Within a run of additions coarser requests go
 * first: a finer flow under a standing coarser one then costs nothing, while the other way round
 * the coarser flow has to be added and the finer one deleted or modified. Within a run of
 * withdrawals finer requests go first: withdrawing them under a standing coarser flow changes no
 * flow, whereas withdrawing the coarser one first forces the finer flows to be (re)installed and
 * then deleted. "Coarser" is the larger {@code cells().volume()}, a linear extension of covering
 * (cells that cover others have at least their volume). Requests of one host never change their
 * relative order: the run is a k-way merge of the per-host subsequences, taking among their heads
 * the best (larger volume for additions, smaller for withdrawals; ties by position in the slice).
 */
public final class SliceOrder {
  private SliceOrder() {}

  /** The slice in processing order; a permutation of it. */
  public static List<ControlRequest> reorder(List<ControlRequest> slice) {
    if (slice.size() <= 1) {
      return List.copyOf(slice);
    }
    List<ControlRequest> out = new ArrayList<>(slice.size());
    int start = 0;
    for (int i = 1; i <= slice.size(); i++) {
      if (i == slice.size() || slice.get(i).kind() != slice.get(start).kind()) {
        mergeRun(slice, start, i, out);
        start = i;
      }
    }
    return List.copyOf(out);
  }

  /** Appends {@code slice[from, to)}, all of one kind, in merged order. */
  private static void mergeRun(
      List<ControlRequest> slice, int from, int to, List<ControlRequest> out) {
    Map<Ipv6Address, Deque<Integer>> byHost = new LinkedHashMap<>();
    double[] volume = new double[to - from];
    for (int i = from; i < to; i++) {
      byHost.computeIfAbsent(slice.get(i).host(), h -> new ArrayDeque<>()).addLast(i);
      volume[i - from] = slice.get(i).cells().volume();
    }
    Comparator<Integer> byVolume = Comparator.comparingDouble(i -> volume[i - from]);
    if (slice.get(from).kind().adds()) {
      byVolume = byVolume.reversed();
    }
    PriorityQueue<Integer> heads = new PriorityQueue<>(byVolume.thenComparing(i -> i));
    for (Deque<Integer> q : byHost.values()) {
      heads.add(q.peekFirst());
    }
    while (!heads.isEmpty()) {
      ControlRequest next = slice.get(heads.poll());
      out.add(next);
      Deque<Integer> q = byHost.get(next.host());
      q.removeFirst();
      if (!q.isEmpty()) {
        heads.add(q.peekFirst());
      }
    }
  }
}
