package org.netpubsub.network.controlplane;

import java.util.ArrayList;
import java.util.List;

/**
 * The naive twin of {@link SliceOrder}: within each run of one kind, repeatedly scan every
 * remaining request, keep those that are the first remaining of their host, and take the best.
 */
final class NaiveSliceOrder {
  private NaiveSliceOrder() {}

  static List<ControlRequest> reorder(List<ControlRequest> slice) {
    List<ControlRequest> out = new ArrayList<>();
    int start = 0;
    while (start < slice.size()) {
      int end = start;
      while (end < slice.size() && slice.get(end).kind() == slice.get(start).kind()) {
        end++;
      }
      List<Integer> remaining = new ArrayList<>();
      for (int i = start; i < end; i++) {
        remaining.add(i);
      }
      boolean adds = slice.get(start).kind().adds();
      while (!remaining.isEmpty()) {
        int best = -1;
        for (int k = 0; k < remaining.size(); k++) {
          int i = remaining.get(k);
          if (!isHead(slice, remaining, i)) {
            continue;
          }
          if (best < 0 || better(slice, i, remaining.get(best), adds)) {
            best = k;
          }
        }
        out.add(slice.get(remaining.remove(best)));
      }
      start = end;
    }
    return out;
  }

  private static boolean isHead(List<ControlRequest> slice, List<Integer> remaining, int i) {
    for (int j : remaining) {
      if (j < i && slice.get(j).host().equals(slice.get(i).host())) {
        return false;
      }
    }
    return true;
  }

  /** Strictly better: coarser (additions) or finer (withdrawals); earlier position on a tie. */
  private static boolean better(List<ControlRequest> slice, int i, int j, boolean adds) {
    double vi = slice.get(i).cells().volume();
    double vj = slice.get(j).cells().volume();
    if (vi != vj) {
      return adds ? vi > vj : vi < vj;
    }
    return i < j;
  }
}
