package org.netpubsub.compiler.target.software;

/**
 * An exact-match table keyed by (state, value), open addressing over one primitive array: each slot
 * is a pair of longs — the value, then the state and next state packed — so that a probe reads one
 * cache line, and the lookup path never boxes.
 */
final class ExactTable {
  private static final long EMPTY = -1L;

  private long[] slots;
  private int mask;
  private int size;

  ExactTable(int expected) {
    allocate(Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1);
  }

  private void allocate(int capacity) {
    slots = new long[2 * capacity];
    for (int i = 1; i < slots.length; i += 2) {
      slots[i] = EMPTY;
    }
    mask = capacity - 1;
    size = 0;
  }

  void put(int state, long value, int next) {
    if (2 * (size + 1) > mask + 1) {
      grow();
    }
    int slot = hash(state, value) & mask;
    for (long meta = slots[2 * slot + 1]; meta != EMPTY; meta = slots[2 * slot + 1]) {
      if ((int) (meta >>> 32) == state && slots[2 * slot] == value) {
        slots[2 * slot + 1] = pack(state, next);
        return;
      }
      slot = (slot + 1) & mask;
    }
    slots[2 * slot] = value;
    slots[2 * slot + 1] = pack(state, next);
    size++;
  }

  /** The next state, or −1. */
  int get(int state, long value) {
    long[] t = slots;
    int m = mask;
    int slot = hash(state, value) & m;
    for (long meta = t[2 * slot + 1]; meta != EMPTY; meta = t[2 * slot + 1]) {
      if ((int) (meta >>> 32) == state && t[2 * slot] == value) {
        return (int) meta;
      }
      slot = (slot + 1) & m;
    }
    return -1;
  }

  private static long pack(int state, int next) {
    return (long) state << 32 | (next & 0xffff_ffffL);
  }

  private void grow() {
    long[] old = slots;
    allocate(2 * (mask + 1));
    for (int i = 0; i < old.length; i += 2) {
      long meta = old[i + 1];
      if (meta != EMPTY) {
        put((int) (meta >>> 32), old[i], (int) meta);
      }
    }
  }

  /**
   * Murmur3's 64-bit finalizer over value and state: every input bit reaches the low bits that pick
   * the slot. (A bare multiply leaves the low bits to the value's low bytes, which are the same
   * padding for every short string — "IBM" and "MSFT" would probe one chain.)
   */
  private static int hash(int state, long value) {
    long h = value ^ state * 0x9E37_79B9_7F4A_7C15L;
    h = (h ^ (h >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
    h = (h ^ (h >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
    return (int) (h ^ (h >>> 33));
  }
}
