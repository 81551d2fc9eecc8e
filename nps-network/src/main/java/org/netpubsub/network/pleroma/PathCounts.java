package org.netpubsub.network.pleroma;

import java.util.Arrays;

/**
 * For one dz, how many publisher–subscriber paths need each requirement (a switch's egress, named
 * by its number in the configurator). A request touches a dz on every switch of its paths, so
 * keeping one dz's counts for all switches together costs one lookup per dz instead of one per
 * switch, and the switches' tables hear only when a requirement appears or disappears. The few
 * requirements of a dz sit in two small arrays searched linearly.
 */
final class PathCounts {
  private int[] requirements = new int[4];
  private int[] counts = new int[4];
  private int size;

  /** Adds {@code n} paths to the requirement; returns how many needed it before. */
  int add(int requirement, int n) {
    for (int i = 0; i < size; i++) {
      if (requirements[i] == requirement) {
        counts[i] += n;
        return counts[i] - n;
      }
    }
    if (size == requirements.length) {
      requirements = Arrays.copyOf(requirements, size * 2);
      counts = Arrays.copyOf(counts, size * 2);
    }
    requirements[size] = requirement;
    counts[size++] = n;
    return 0;
  }

  /**
   * Takes {@code n} paths from the requirement; returns how many still need it, or -1 (changing
   * nothing) if fewer than {@code n} did.
   */
  int remove(int requirement, int n) {
    for (int i = 0; i < size; i++) {
      if (requirements[i] == requirement) {
        if (counts[i] < n) {
          return -1;
        }
        counts[i] -= n;
        int left = counts[i];
        if (left == 0) {
          size--;
          requirements[i] = requirements[size];
          counts[i] = counts[size];
        }
        return left;
      }
    }
    return -1;
  }

  boolean isEmpty() {
    return size == 0;
  }
}
