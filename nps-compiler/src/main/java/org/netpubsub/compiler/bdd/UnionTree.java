package org.netpubsub.compiler.bdd;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;

/**
 * The union of many BDDs kept as a segment tree over slots: each slot holds one BDD, each inner
 * position the union of its two children, the top the union of all. Changing a slot redoes only the
 * unions on its path to the top (log₂ slots of them), lazily at the next {@link #root}; with the
 * store's union cache each costs about what changed. Freed slots are reused, so the tree keeps its
 * shape and its cached unions stay valid.
 */
public final class UnionTree {
  private final Bdd bdd;
  private int capacity = 1;
  private int[] tree = new int[2]; // heap order: inner positions 1..capacity−1, slots from capacity
  private final BitSet dirty = new BitSet();
  private final Deque<Integer> free = new ArrayDeque<>();
  private int next;
  private int used;

  public UnionTree(Bdd bdd) {
    this.bdd = bdd;
  }

  /** Puts a BDD in a free slot; returns the slot. */
  public int add(int node) {
    Integer slot = free.pollFirst();
    if (slot == null) {
      if (next == capacity) {
        grow();
      }
      slot = next++;
    }
    used++;
    set(slot, node);
    return slot;
  }

  public void remove(int slot) {
    set(slot, Bdd.EMPTY);
    free.addLast(slot);
    used--;
  }

  public boolean isEmpty() {
    return used == 0;
  }

  /** The union of every slot. */
  public int root() {
    for (int i = dirty.previousSetBit(capacity - 1); i >= 1; i = dirty.previousSetBit(i - 1)) {
      tree[i] = bdd.union(tree[2 * i], tree[2 * i + 1]);
    }
    dirty.clear();
    return tree[1];
  }

  /** Every node the tree holds, for {@link Bdd#compact}. */
  public int[] nodes() {
    root();
    return Arrays.copyOfRange(tree, 1, tree.length);
  }

  /** Renames every node after {@link Bdd#compact}. */
  public void rename(int[] remap) {
    root();
    for (int i = 1; i < tree.length; i++) {
      tree[i] = remap[tree[i]];
    }
  }

  /** Replaces the BDD in a slot. */
  public void set(int slot, int node) {
    int i = capacity + slot;
    tree[i] = node;
    for (i >>= 1; i >= 1; i >>= 1) {
      dirty.set(i);
    }
  }

  private void grow() {
    int[] slots = Arrays.copyOfRange(tree, capacity, capacity + next);
    capacity *= 2;
    tree = new int[2 * capacity];
    System.arraycopy(slots, 0, tree, capacity, slots.length);
    dirty.set(1, capacity);
  }
}
