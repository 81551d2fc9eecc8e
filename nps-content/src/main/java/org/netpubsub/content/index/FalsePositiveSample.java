package org.netpubsub.content.index;

import java.util.Arrays;
import java.util.List;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;

/**
 * A sample of events and subscriptions, and what an index delivers of it: per subscription, the
 * events whose dz its cover holds (what the switches deliver), the events it matches, and its cells
 * (its flows). Covers are supersets, so false positives are delivered − matching.
 */
public final class FalsePositiveSample {
  private final List<Event> events;
  private final List<Dnf> subscriptions;
  private final long[] matching;

  public FalsePositiveSample(List<Event> events, List<Dnf> subscriptions) {
    this.events = List.copyOf(events);
    this.subscriptions = List.copyOf(subscriptions);
    this.matching = new long[subscriptions.size()];
    for (int s = 0; s < matching.length; s++) {
      for (Event e : events) {
        matching[s] += FilterEvaluator.matches(subscriptions.get(s), e) ? 1 : 0;
      }
    }
  }

  public List<Event> events() {
    return events;
  }

  public List<Dnf> subscriptions() {
    return subscriptions;
  }

  /** The false positives when every event goes to every subscription (an index of no bits). */
  public long withoutIndex() {
    long fp = 0;
    for (long m : matching) {
      fp += events.size() - m;
    }
    return fp;
  }

  /** What {@code index} delivers with covers of at most {@code maxCells} cells. */
  public Result measure(SpatialIndex index, int maxCells) {
    long[][] offsets = new long[events.size()][];
    for (int e = 0; e < offsets.length; e++) {
      offsets[e] = index.offsets(events.get(e));
    }
    return measure(index, offsets, maxCells);
  }

  /** {@link #measure(SpatialIndex, int)} with the events' offsets along the index's dimensions. */
  Result measure(SpatialIndex index, long[][] offsets, int maxCells) {
    Dz[] dz = new Dz[offsets.length];
    for (int e = 0; e < dz.length; e++) {
      dz[e] = index.dz(offsets[e]);
    }
    Arrays.sort(dz);
    long[] hi = new long[dz.length];
    long[] lo = new long[dz.length];
    for (int e = 0; e < dz.length; e++) {
      hi[e] = dz[e].hi();
      lo[e] = dz[e].lo();
    }
    long[] delivered = new long[subscriptions.size()];
    int[] cells = new int[subscriptions.size()];
    for (int s = 0; s < delivered.length; s++) {
      DzSet cover = index.cover(subscriptions.get(s), maxCells);
      cells[s] = cover.size();
      for (Dz c : cover) {
        long lastHi = c.hi() | ~Dz.maskHi(c.length());
        long lastLo = c.lo() | ~Dz.maskLo(c.length());
        delivered[s] += below(hi, lo, lastHi, lastLo, true) - below(hi, lo, c.hi(), c.lo(), false);
      }
    }
    return new Result(delivered, matching.clone(), cells);
  }

  /** The number of (hi, lo) keys below (or, if {@code inclusive}, up to) the given one. */
  private static int below(long[] hi, long[] lo, long h, long l, boolean inclusive) {
    int a = 0;
    int b = hi.length;
    while (a < b) {
      int m = (a + b) >>> 1;
      int c = Long.compareUnsigned(hi[m], h);
      if (c == 0) {
        c = Long.compareUnsigned(lo[m], l);
      }
      if (c < 0 || (inclusive && c == 0)) {
        a = m + 1;
      } else {
        b = m;
      }
    }
    return a;
  }

  /** Per subscription: events delivered, events matching, cells of the cover. */
  public record Result(long[] delivered, long[] matching, int[] cells) {
    public long totalDelivered() {
      return Arrays.stream(delivered).sum();
    }

    public long falsePositives() {
      return totalDelivered() - Arrays.stream(matching).sum();
    }

    /** False positives over deliveries (0 when nothing is delivered). */
    public double rate() {
      long d = totalDelivered();
      return d == 0 ? 0 : (double) falsePositives() / d;
    }

    public int maxCells() {
      return Arrays.stream(cells).max().orElse(0);
    }
  }
}
