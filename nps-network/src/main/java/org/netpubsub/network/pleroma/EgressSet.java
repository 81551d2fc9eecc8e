package org.netpubsub.network.pleroma;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SortedSet;

/**
 * An immutable sorted set of egresses in one small array: a content flow's egresses. Flows have a
 * handful of egresses and are compared, searched and copied on every table change, which a tree set
 * makes a walk over scattered nodes; here membership is an identity scan (the configurator shares
 * egress objects), then a binary search of primitive keys (kind and port, in the egresses' order),
 * so "not contained" — the usual answer once identity fails — reads no egress object; only egresses
 * with the same kind and port (subscribers behind one port) are compared. Copying is free.
 */
final class EgressSet extends AbstractSet<EventEgress> implements SortedSet<EventEgress> {
  static final EgressSet EMPTY = new EgressSet(new EventEgress[0]);

  private final EventEgress[] sorted; // ascending, distinct, never modified
  private final long[] keys; // key(sorted[i]): ascending too, equal only for one kind and port

  private EgressSet(EventEgress[] sorted) {
    this.sorted = sorted;
    this.keys = new long[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      keys[i] = key(sorted[i]);
    }
  }

  /**
   * Rewritten egresses after plain ones, then by port: the start of {@link EventEgress}'s order.
   */
  private static long key(EventEgress e) {
    return (e.lastHop().isPresent() ? 1L << 32 : 0) | e.port();
  }

  /** The set itself if it is one, else a sorted copy. */
  static EgressSet copyOf(Collection<EventEgress> c) {
    if (c instanceof EgressSet s) {
      return s;
    }
    if (c.isEmpty()) {
      return EMPTY;
    }
    EventEgress[] a = c.toArray(new EventEgress[0]);
    Arrays.sort(a);
    int n = 1;
    for (int i = 1; i < a.length; i++) {
      if (a[i].compareTo(a[n - 1]) != 0) {
        a[n++] = a[i];
      }
    }
    return new EgressSet(n == a.length ? a : Arrays.copyOf(a, n));
  }

  /** This set with {@code more} (the first {@code n} of them) added. */
  EgressSet with(EventEgress[] more, int n) {
    EventEgress[] a = Arrays.copyOf(sorted, sorted.length + n);
    int size = sorted.length;
    for (int i = 0; i < n; i++) {
      EventEgress e = more[i];
      int at = Arrays.binarySearch(a, 0, size, e);
      if (at < 0) {
        at = -at - 1;
        System.arraycopy(a, at, a, at + 1, size - at);
        a[at] = e;
        size++;
      }
    }
    return new EgressSet(size == a.length ? a : Arrays.copyOf(a, size));
  }

  @Override
  public boolean contains(Object o) {
    for (EventEgress e : sorted) {
      if (e == o) {
        return true;
      }
    }
    if (!(o instanceof EventEgress e)) {
      return false;
    }
    long k = key(e);
    int at = Arrays.binarySearch(keys, k);
    if (at < 0) {
      return false;
    }
    while (at > 0 && keys[at - 1] == k) {
      at--; // the first of the egresses with this kind and port
    }
    for (; at < keys.length && keys[at] == k; at++) {
      if (sorted[at].equals(e)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public int size() {
    return sorted.length;
  }

  @Override
  public Iterator<EventEgress> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < sorted.length;
      }

      @Override
      public EventEgress next() {
        if (next == sorted.length) {
          throw new NoSuchElementException();
        }
        return sorted[next++];
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EgressSet s ? Arrays.equals(sorted, s.sorted) : super.equals(o);
  }

  @Override
  public int hashCode() {
    return super.hashCode();
  }

  @Override
  public Comparator<? super EventEgress> comparator() {
    return null; // natural order
  }

  @Override
  public SortedSet<EventEgress> subSet(EventEgress from, EventEgress to) {
    return range(from, to);
  }

  @Override
  public SortedSet<EventEgress> headSet(EventEgress to) {
    return range(null, to);
  }

  @Override
  public SortedSet<EventEgress> tailSet(EventEgress from) {
    return range(from, null);
  }

  @Override
  public EventEgress first() {
    if (sorted.length == 0) {
      throw new NoSuchElementException();
    }
    return sorted[0];
  }

  @Override
  public EventEgress last() {
    if (sorted.length == 0) {
      throw new NoSuchElementException();
    }
    return sorted[sorted.length - 1];
  }

  /** The elements from {@code from} (inclusive; null: the first) to {@code to} (exclusive). */
  private EgressSet range(EventEgress from, EventEgress to) {
    int lo = from == null ? 0 : insertionPoint(from);
    int hi = to == null ? sorted.length : insertionPoint(to);
    return lo >= hi ? EMPTY : new EgressSet(Arrays.copyOfRange(sorted, lo, hi));
  }

  private int insertionPoint(EventEgress e) {
    int at = Arrays.binarySearch(sorted, e);
    return at >= 0 ? at : -at - 1;
  }
}
