package org.netpubsub.compiler.bdd;

import java.util.Arrays;

/** A terminal of the BDD: the set of action ids (sorted, distinct) a message gets there. */
public final class Leaf {
  static final Leaf EMPTY = new Leaf(new int[0]);

  private final int[] actions;
  private final int hash;

  private Leaf(int[] actions) {
    this.actions = actions;
    this.hash = Arrays.hashCode(actions);
  }

  public static Leaf of(int... actions) {
    int[] a = Arrays.stream(actions).sorted().distinct().toArray();
    return a.length == 0 ? EMPTY : new Leaf(a);
  }

  public int[] actions() {
    return actions.clone();
  }

  public int size() {
    return actions.length;
  }

  public int action(int i) {
    return actions[i];
  }

  public boolean isEmpty() {
    return actions.length == 0;
  }

  Leaf union(Leaf other) {
    if (other.actions.length == 0 || this == other) {
      return this;
    }
    if (actions.length == 0) {
      return other;
    }
    int[] out = new int[actions.length + other.actions.length];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < actions.length || j < other.actions.length) {
      if (j >= other.actions.length || (i < actions.length && actions[i] < other.actions[j])) {
        out[n++] = actions[i++];
      } else if (i >= actions.length || other.actions[j] < actions[i]) {
        out[n++] = other.actions[j++];
      } else {
        out[n++] = actions[i++];
        j++;
      }
    }
    return new Leaf(Arrays.copyOf(out, n));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Leaf l && hash == l.hash && Arrays.equals(actions, l.actions);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Arrays.toString(actions);
  }
}
