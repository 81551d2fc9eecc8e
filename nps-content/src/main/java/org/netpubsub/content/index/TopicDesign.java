package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.StringCoding;
import org.netpubsub.content.schema.Topics;

/**
 * The topic coding {@link LayoutDesigner} learns (docs/content-model.md, "Topics"): level i is
 * coded by a dictionary of the values the sample events and filters hold there ({@code ""} when a
 * topic is shallower) in ⌈log₂(n + 1)⌉ bits (the values and the escape code of unseen ones; at most
 * 64 in all, deep levels give way first), and the levels are coded in the order that lets the
 * fewest sample events into the sample filters' ranges: levels coded in order, each level moved
 * last, and levels sorted by how often a filter leaves them free with {@code +}. Pure and
 * deterministic.
 */
final class TopicDesign {
  /**
   * Ranges per filter when orders are compared: a few, not the cover's cell budget. An edge switch
   * holds the union of its hosts' covers under a flow budget (round-robin's own flows are 224–256
   * for 100–1 250 subscriptions a host in docs/results/index-layouts.md: 0.2–2.5 a subscription),
   * so an order is only as good as its few-range covers. Scored at 64 ranges, the order putting the
   * levels {@code +} leaves free last won while every {@code a/b/#} cost up to 64 cells, and the
   * hosts' unions had to be merged back blind (#21: fpr 0.081 against 0.060 at 256 flows).
   */
  static final int RANGES = 4;

  private TopicDesign() {}

  static StringCoding coding(
      Set<String> seen, List<String> filters, List<Event> events, StringAttribute a) {
    List<Set<String>> levels = new ArrayList<>();
    int deepest = 0;
    int shallowest = StringCoding.MAX_LEVELS;
    for (String v : seen) {
      int depth = add(levels, v.split("/", -1), false);
      deepest = Math.max(deepest, depth);
      shallowest = Math.min(shallowest, depth);
    }
    for (String f : filters) {
      add(levels, f.split("/", -1), true);
    }
    List<Integer> bits = new ArrayList<>();
    List<List<String>> dictionaries = new ArrayList<>();
    int sum = 0;
    for (int j = 0; j < Math.min(levels.size(), Math.max(deepest, 1)); j++) {
      Set<String> level = levels.get(j);
      if (j >= shallowest) {
        level.add(""); // a shallower topic leaves level j absent
      }
      String[] v = level.toArray(String[]::new);
      Arrays.sort(v, StringCoding::compareBytes);
      int b = Math.min(64 - sum, Math.max(1, Codes.resolution(v.length))); // n values + escape
      if (b < 1) {
        break;
      }
      bits.add(b);
      dictionaries.add(List.of(v));
      sum += b;
    }
    StringCoding.Topic best = null;
    long bestScore = Long.MAX_VALUE;
    for (List<Integer> order : orders(bits.size(), filters)) {
      StringCoding.Topic t =
          new StringCoding.Topic(
              order.stream().map(bits::get).toList(),
              order,
              order.stream().map(dictionaries::get).toList());
      long score = score(t, filters, events, a);
      if (score < bestScore) {
        best = t;
        bestScore = score;
      }
    }
    return best;
  }

  /** Adds the literal levels of a topic (or filter) to the per-level sets; returns its depth. */
  private static int add(List<Set<String>> levels, String[] parts, boolean filter) {
    int n = Math.min(parts.length, StringCoding.MAX_LEVELS);
    for (int i = 0; i < n; i++) {
      if (levels.size() <= i) {
        levels.add(new HashSet<>());
      }
      if (!filter || !parts[i].equals("+") && !parts[i].equals("#")) {
        levels.get(i).add(parts[i]);
      }
    }
    return n;
  }

  /** The candidate orders, the natural one first (it wins ties). */
  private static Set<List<Integer>> orders(int n, List<String> filters) {
    Set<List<Integer>> out = new LinkedHashSet<>();
    out.add(StringCoding.Topic.identity(n));
    for (int j = 0; j < n; j++) {
      List<Integer> o = new ArrayList<>(StringCoding.Topic.identity(n));
      o.remove(Integer.valueOf(j));
      o.add(j);
      out.add(o);
    }
    long[] plus = new long[n];
    for (String f : filters) {
      String[] parts = f.split("/", -1);
      for (int j = 0; j < Math.min(n, parts.length); j++) {
        plus[j] += parts[j].equals("+") ? 1 : 0;
      }
    }
    List<Integer> byPlus = new ArrayList<>(StringCoding.Topic.identity(n));
    byPlus.sort(Comparator.comparingLong(j -> plus[j]));
    out.add(byPlus);
    return out;
  }

  /** Σ over filters of the sample events inside the filter's (at most {@value #RANGES}) ranges. */
  private static long score(
      StringCoding.Topic t, List<String> filters, List<Event> events, StringAttribute a) {
    long[] codes = new long[events.size()];
    for (int e = 0; e < codes.length; e++) {
      codes[e] = t.offset(a, events.get(e).stringValue(a.position())) ^ Long.MIN_VALUE;
    }
    Arrays.sort(codes); // signed order of the flipped codes is the unsigned order
    long score = 0;
    for (String f : filters) {
      long[] r =
          Topics.hasWildcard(f)
              ? t.patternRanges(f, RANGES)
              : new long[] {t.offset(a, f), t.offset(a, f)};
      for (int i = 0; i < r.length; i += 2) {
        score +=
            below(codes, r[i + 1] ^ Long.MIN_VALUE, true)
                - below(codes, r[i] ^ Long.MIN_VALUE, false);
      }
    }
    return score;
  }

  /** The number of codes below {@code x} (or at most {@code x} when {@code inclusive}). */
  private static int below(long[] sorted, long x, boolean inclusive) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < x || inclusive && sorted[mid] == x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
