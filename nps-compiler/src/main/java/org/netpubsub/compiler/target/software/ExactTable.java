package org.netpubsub.compiler.target.software;

import java.util.Arrays;

/**
 * An exact-match table keyed by (state, value), open addressing over primitive arrays: no boxing on
 * the lookup path.
 */
final class ExactTable {
  private int[] states;
  private long[] values;
  private int[] nexts;
  private int size;

  ExactTable(int expected) {
    int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
    states = new int[capacity];
    Arrays.fill(states, -1);
    values = new long[capacity];
    nexts = new int[capacity];
  }

  void put(int state, long value, int next) {
    if (2 * (size + 1) > states.length) {
      grow();
    }
    int mask = states.length - 1;
    int slot = hash(state, value) & mask;
    while (states[slot] >= 0 && !(states[slot] == state && values[slot] == value)) {
      slot = (slot + 1) & mask;
    }
    if (states[slot] < 0) {
      size++;
    }
    states[slot] = state;
    values[slot] = value;
    nexts[slot] = next;
  }

  /** The next state, or −1. */
  int get(int state, long value) {
    int mask = states.length - 1;
    int slot = hash(state, value) & mask;
    for (int s = states[slot]; s >= 0; s = states[slot = (slot + 1) & mask]) {
      if (s == state && values[slot] == value) {
        return nexts[slot];
      }
    }
    return -1;
  }

  private void grow() {
    int[] os = states;
    long[] ov = values;
    int[] on = nexts;
    states = new int[os.length * 2];
    Arrays.fill(states, -1);
    values = new long[os.length * 2];
    nexts = new int[os.length * 2];
    size = 0;
    for (int i = 0; i < os.length; i++) {
      if (os[i] >= 0) {
        put(os[i], ov[i], on[i]);
      }
    }
  }

  private static int hash(int state, long value) {
    long h = value * 0x9E3779B97F4A7C15L + state * 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ (h >>> 31));
  }
}
