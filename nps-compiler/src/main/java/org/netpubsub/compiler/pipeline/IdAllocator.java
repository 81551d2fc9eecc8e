package org.netpubsub.compiler.pipeline;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Ids of BDD states and multicast groups. Compact (the default): the lowest freed ids are reused.
 * From content ({@link #hashed}): an id is its content's hash in {@code [first, first + span)}, the
 * next free one when that is taken (linear probing), so it depends on the order of requests only
 * when two live contents collide. Either way a freed id is reused only after the update that freed
 * it, so that an update never deletes and re-adds entries under one id (the new entries can go in
 * before the old ones are deleted).
 */
final class IdAllocator {
  private final Deque<Integer> free = new ArrayDeque<>();
  private final List<Integer> quarantined = new ArrayList<>();
  private final int first;
  private final int span; // 0: compact
  private final Set<Integer> taken = new HashSet<>(); // from content: live and quarantined ids
  private int next;
  private int live;

  IdAllocator(int first) {
    this(first, 0);
  }

  private IdAllocator(int first, int span) {
    this.first = first;
    this.next = first;
    this.span = span;
  }

  /** Ids from content hashes in {@code [first, first + span)}. */
  static IdAllocator hashed(int first, int span) {
    if (span < 1 || (long) first + span > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("ids " + first + " + " + span + " do not fit an int");
    }
    return new IdAllocator(first, span);
  }

  /** The next compact id; from content, the id of hash 0. */
  int allocate() {
    return allocate(0);
  }

  /** From content: the id of {@code hash} (its own slot if free); compact: the next id. */
  int allocate(long hash) {
    live++;
    if (span == 0) {
      Integer id = free.pollFirst();
      return id != null ? id : next++;
    }
    int slot = (int) Math.floorMod(hash, (long) span);
    for (int i = 0; i < span; i++, slot = slot + 1 == span ? 0 : slot + 1) {
      if (taken.add(first + slot)) {
        next = Math.max(next, first + slot + 1);
        return first + slot;
      }
    }
    throw new IllegalStateException("all " + span + " ids are in use");
  }

  void release(int id) {
    live--;
    quarantined.add(id);
  }

  /** The update is done: what it freed may be reused. */
  void endUpdate() {
    if (span > 0) {
      taken.removeAll(quarantined);
    } else {
      quarantined.sort(null);
      free.addAll(quarantined);
    }
    quarantined.clear();
  }

  /** One more than the largest id ever handed out. */
  int bound() {
    return next;
  }

  int live() {
    return live;
  }
}
