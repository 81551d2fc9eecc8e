package org.netpubsub.network.multicast;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Numbers that are a function of what they stand for, not of when it was asked for (issue 27 part
 * 7): a controller that restarts, or takes over, learns its standing requests again in another
 * order and must hand out the same segment indices and entry SIDs, or it rewrites every switch and
 * moves the addresses sources send to. A number is its content's hash, in {@code [0, span)}, within
 * a scope (a switch, a tree node); when that slot is taken in the scope, the next free one (linear
 * probing). So the numbers depend on the order of requests only when two live contents of one scope
 * hash to the same slot: with m of them in a scope, a chance of about m²/(2·span).
 *
 * <p>The hash is fixed here (a SplitMix64 finaliser over 64-bit words), never {@link
 * Object#hashCode} of a JDK type that does not specify it, so two JVMs agree.
 */
final class ContentIds {
  private final int span;
  private final Map<Long, Set<Integer>> taken = new HashMap<>();

  /** Slots {@code 0 .. span-1} in every scope. */
  ContentIds(int span) {
    if (span <= 0) {
      throw new IllegalArgumentException("a span of content ids is positive: " + span);
    }
    this.span = span;
  }

  /**
   * The slot for content hashing to {@code hash} in {@code scope}: its own if free, else the next
   * free one.
   *
   * @throws IllegalStateException if every slot of the scope is taken
   */
  int take(long scope, long hash) {
    Set<Integer> used = taken.computeIfAbsent(scope, s -> new HashSet<>());
    int slot = (int) Math.floorMod(hash, (long) span);
    for (int i = 0; i < span; i++, slot = slot + 1 == span ? 0 : slot + 1) {
      if (used.add(slot)) {
        return slot;
      }
    }
    throw new IllegalStateException("all " + span + " ids of " + scope + " are in use");
  }

  /** Gives a slot back (nothing if it was not taken). */
  void free(long scope, int slot) {
    Set<Integer> used = taken.get(scope);
    if (used != null && used.remove(slot) && used.isEmpty()) {
      taken.remove(scope);
    }
  }

  /** Starts a hash. */
  static long seed(long domain) {
    return mix(0x9e37_79b9_7f4a_7c15L ^ domain);
  }

  /** {@code h} with one more 64-bit word of content: order matters. */
  static long add(long h, long word) {
    return mix(h * 0x9e37_79b9_7f4a_7c15L + word);
  }

  /** {@code h} with a string's characters (UTF-16 units, as they are). */
  static long add(long h, String s) {
    h = add(h, s.length());
    for (int i = 0; i < s.length(); i++) {
      h = add(h, s.charAt(i));
    }
    return h;
  }

  /** SplitMix64's finaliser: every input bit moves about half the output bits. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d0_49bb_1331_11ebL;
    return z ^ (z >>> 31);
  }
}
