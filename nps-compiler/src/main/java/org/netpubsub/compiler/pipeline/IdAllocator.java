package org.netpubsub.compiler.pipeline;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Compact ids (BDD states, multicast groups): the lowest freed ids are reused, but only after the
 * update that freed them, so that an update never deletes and re-adds entries under one id (the new
 * entries can go in before the old ones are deleted).
 */
final class IdAllocator {
  private final Deque<Integer> free = new ArrayDeque<>();
  private final List<Integer> quarantined = new ArrayList<>();
  private int next;
  private int live;

  IdAllocator(int first) {
    this.next = first;
  }

  int allocate() {
    live++;
    Integer id = free.pollFirst();
    return id != null ? id : next++;
  }

  void release(int id) {
    live--;
    quarantined.add(id);
  }

  /** The update is done: what it freed may be reused. */
  void endUpdate() {
    quarantined.sort(null);
    free.addAll(quarantined);
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
