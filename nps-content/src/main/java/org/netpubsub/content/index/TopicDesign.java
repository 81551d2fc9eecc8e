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
 * last, and levels sorted by how often a filter leaves them free with {@code +}. All of them are
 * returned, ranked, so that a flow budget can score each. Pure and deterministic.
 */
final class TopicDesign {
  /**
   * Ranges per filter when orders are ranked for a flow budget: a few, not the cover's cell budget
   * (round-robin's own edge flows are 0.2–2.5 a subscription on the topic workload). Under a budget
   * the ranking only decides which order is allocated bits first and wins ties: {@link
   * LayoutDesigner} then scores every order by hosts' unions merged to the budget. Without one,
   * orders are ranked at K ranges, the cover's own budget.
   */
  static final int RANGES = 4;

  private TopicDesign() {}

  /**
   * The level-dictionary codings, one per candidate level order, ranked by the sample events inside
   * the sample filters' ranges (at most {@code ranges} a filter), the natural order first on ties.
   */
  static List<StringCoding> codings(
      Set<String> seen, List<String> filters, List<Event> events, StringAttribute a, int ranges) {
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
    List<StringCoding.Topic> out = new ArrayList<>();
    List<Long> scores = new ArrayList<>();
    for (List<Integer> order : orders(bits.size(), filters)) {
      StringCoding.Topic t =
          new StringCoding.Topic(
              order.stream().map(bits::get).toList(),
              order,
              order.stream().map(dictionaries::get).toList());
      out.add(t);
      scores.add(score(t, filters, events, a, ranges));
    }
    Integer[] rank = new Integer[out.size()];
    for (int i = 0; i < rank.length; i++) {
      rank[i] = i;
    }
    Arrays.sort(rank, Comparator.comparingLong(scores::get)); // stable: candidates' order on ties
    return Arrays.stream(rank).<StringCoding>map(out::get).toList();
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

  /** Σ over filters of the sample events inside the filter's (at most {@code ranges}) ranges. */
  private static long score(
      StringCoding.Topic t,
      List<String> filters,
      List<Event> events,
      StringAttribute a,
      int ranges) {
    long[] codes = new long[events.size()];
    for (int e = 0; e < codes.length; e++) {
      codes[e] = t.offset(a, events.get(e).stringValue(a.position())) ^ Long.MIN_VALUE;
    }
    Arrays.sort(codes); // signed order of the flipped codes is the unsigned order
    long score = 0;
    for (String f : filters) {
      long[] r =
          Topics.hasWildcard(f)
              ? t.patternRanges(f, ranges)
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
