package org.netpubsub.compiler.bdd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A store of multi-terminal BDD nodes (Camus §5.2): each inner node tests one predicate on a query
 * field — {@code value < c} (unsigned) on a range field, {@code value == c} on an exact one — and
 * leaves are {@link Leaf} action sets; merging two BDDs unites the sets where both reach a leaf.
 * Nodes are ints, hash-consed: equal structure is the same id, so a BDD is canonical for its
 * function and comparing BDDs is comparing ints.
 *
 * <p>Variables are totally ordered by (field, constant); every path tests them in that order. The
 * store keeps four reductions: (i) isomorphic nodes are one node (hash-consing); (ii) a node whose
 * branches agree is its branch; (iii) a predicate implied by an ancestor is never tested (the
 * cofactors below skip it: after {@code v < c} holds, every {@code v < c'} with c' > c holds, and
 * after {@code v == c}, every other {@code v == c'} fails); (iv) {@code v < c ? X : (v < c' ? X :
 * Y)} is {@code v < c' ? X : Y}, so a range field's chain has only the thresholds where its outcome
 * changes; (v) on an exact field, {@code v == c ? E : chain} where the chain ends in E (what every
 * value it does not test gets) is the chain, so an exact field's chain has only the values whose
 * outcome differs from its end. Without (v) such a test survived or not by the order of the unions
 * (issue 27 part 7: a restarted controller, meeting the rules in another order, built another
 * diagram). Together they make a diagram canonical for its function under the variable order, and
 * keep at most one path between any two nodes of consecutive fields, which bounds the tables
 * Algorithm 2 derives.
 *
 * <p>Recursion follows the fields, not the chains within a field (those are walked in loops), so
 * the stack depth is a few frames per field whatever the number of rules. Nodes are never freed; a
 * full recompilation in a new store reclaims them. Not thread-safe.
 */
public final class Bdd {
  /** The leaf with no actions: "drop". */
  public static final int EMPTY = 0;

  /** Entries of the union cache (direct-mapped): 2^20, 12 MiB. */
  private static final int CACHE_SIZE = 1 << 20;

  private final boolean[] equality; // per field: == predicates (exact match), else < thresholds

  private int[] field = new int[1024]; // -1 for a leaf
  private long[] constant = new long[1024];
  private int[] hi = new int[1024]; // a leaf: its index in leaves
  private int[] lo = new int[1024];
  private int[] chainEnd = new int[1024]; // the first node down the false branches not testing f
  private int size;

  private int[] unique = new int[2048]; // open addressing: node id + 1, 0 = free
  private final List<Leaf> leaves = new ArrayList<>();
  private final Map<Leaf, Integer> leafIds = new HashMap<>();
  private long[] cacheKeys = newCache();
  private int[] cacheValues = new int[CACHE_SIZE];

  /**
   * @param equality per query field, whether it is matched exactly (== predicates)
   */
  public Bdd(boolean[] equality) {
    this.equality = equality.clone();
    if (leaf(Leaf.EMPTY) != EMPTY) {
      throw new AssertionError("the empty leaf must be node 0");
    }
  }

  // ---- nodes ----

  /** The node id of a leaf. */
  public int leaf(Leaf l) {
    Integer id = leafIds.get(l);
    if (id != null) {
      return id;
    }
    int n = allocate();
    field[n] = -1;
    hi[n] = leaves.size();
    leaves.add(l);
    leafIds.put(l, n);
    return n;
  }

  /**
   * The node testing predicate (f, c) with these branches, reduced (rules ii, iv and v) and shared.
   */
  public int node(int f, long c, int whenTrue, int whenFalse) {
    boolean chained = isNode(whenFalse) && field[whenFalse] == f;
    int end = chained ? chainEnd[whenFalse] : whenFalse;
    if (whenTrue == whenFalse || (equality[f] && whenTrue == end)) {
      return whenFalse; // ii, v: v == c leads where every untested value goes
    }
    if (!equality[f] && chained && hi[whenFalse] == whenTrue) {
      return whenFalse; // iv
    }
    int mask = unique.length - 1;
    int slot = hash(f, c, whenTrue, whenFalse) & mask;
    for (int id = unique[slot]; id != 0; id = unique[slot = (slot + 1) & mask]) {
      int n = id - 1;
      if (field[n] == f && constant[n] == c && hi[n] == whenTrue && lo[n] == whenFalse) {
        return n;
      }
    }
    int n = allocate();
    field[n] = f;
    constant[n] = c;
    hi[n] = whenTrue;
    lo[n] = whenFalse;
    chainEnd[n] = end;
    unique[slot] = n + 1;
    if (2 * size > unique.length) {
      rehash();
    }
    return n;
  }

  public boolean isLeaf(int n) {
    return field[n] < 0;
  }

  public boolean isNode(int n) {
    return field[n] >= 0;
  }

  public int field(int n) {
    return field[n];
  }

  public long constant(int n) {
    return constant[n];
  }

  /** The branch taken when the predicate holds. */
  public int whenTrue(int n) {
    return hi[n];
  }

  public int whenFalse(int n) {
    return lo[n];
  }

  public Leaf leafOf(int n) {
    if (!isLeaf(n)) {
      throw new IllegalArgumentException("node " + n + " is not a leaf");
    }
    return leaves.get(hi[n]);
  }

  public boolean isEquality(int f) {
    return equality[f];
  }

  public int fields() {
    return equality.length;
  }

  /** Nodes and leaves ever made (live or not). */
  public int size() {
    return size;
  }

  /** Whether the predicate of node {@code n} holds for {@code value}. */
  public boolean test(int n, long value) {
    return equality[field[n]] ? value == constant[n] : Long.compareUnsigned(value, constant[n]) < 0;
  }

  /** The leaf a message with these field values reaches. */
  public Leaf evaluate(int root, long[] values) {
    int n = root;
    while (isNode(n)) {
      n = test(n, values[field[n]]) ? hi[n] : lo[n];
    }
    return leafOf(n);
  }

  // ---- operations ----

  /** The union: a message gets the actions of either BDD. */
  public int union(int a, int b) {
    Integer done = terminal(a, b);
    if (done != null) {
      return done;
    }
    // Walk the merged chain of the first field either operand tests; recurse only into later
    // fields.
    int f = Math.min(fieldOf(a), fieldOf(b));
    long[] consts = new long[8];
    int[] trues = new int[8];
    long[] keys = new long[8];
    int k = 0;
    int tail;
    while (true) {
      Integer known = terminal(a, b);
      if (known != null) {
        tail = known;
        break;
      }
      if (fieldOf(a) != f && fieldOf(b) != f) {
        tail = union(a, b);
        break;
      }
      long c = smallestConstant(a, b, f);
      int t = union(cofactorTrue(a, f, c), cofactorTrue(b, f, c));
      if (k == consts.length) {
        consts = Arrays.copyOf(consts, 2 * k);
        trues = Arrays.copyOf(trues, 2 * k);
        keys = Arrays.copyOf(keys, 2 * k);
      }
      consts[k] = c;
      trues[k] = t;
      keys[k++] = key(a, b);
      a = cofactorFalse(a, f, c);
      b = cofactorFalse(b, f, c);
    }
    for (int i = k - 1; i >= 0; i--) {
      tail = node(f, consts[i], trues[i], tail);
      remember(keys[i], tail);
    }
    return tail;
  }

  /** The result without recursion (an empty or equal operand, two leaves, the cache), or null. */
  private Integer terminal(int a, int b) {
    if (b == EMPTY || a == b) {
      return a;
    }
    if (a == EMPTY) {
      return b;
    }
    if (isLeaf(a) && isLeaf(b)) {
      return leaf(leafOf(a).union(leafOf(b)));
    }
    long key = a < b ? key(a, b) : key(b, a); // union is commutative
    int slot = slot(key);
    return cacheKeys[slot] == key ? cacheValues[slot] : null;
  }

  private void remember(long key, int result) {
    int a = (int) (key >>> 32);
    int b = (int) key;
    long k = a < b ? key : key(b, a);
    int slot = slot(k);
    cacheKeys[slot] = k;
    cacheValues[slot] = result;
  }

  private static int slot(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 44); // 20 bits
  }

  private static long[] newCache() {
    long[] keys = new long[CACHE_SIZE];
    Arrays.fill(keys, -1L);
    return keys;
  }

  private int fieldOf(int n) {
    return isLeaf(n) ? Integer.MAX_VALUE : field[n];
  }

  private long smallestConstant(int a, int b, int f) {
    if (fieldOf(a) != f) {
      return constant[b];
    }
    if (fieldOf(b) != f) {
      return constant[a];
    }
    return Long.compareUnsigned(constant[a], constant[b]) <= 0 ? constant[a] : constant[b];
  }

  /**
   * {@code n} given that predicate (f, c) holds — c is the smallest constant of field f left in
   * {@code n}, so every other test of f in it is decided: {@code v < c'} holds, {@code v == c'}
   * fails (reduction iii).
   */
  private int cofactorTrue(int n, int f, long c) {
    while (isNode(n) && field[n] == f) {
      if (equality[f]) {
        n = constant[n] == c ? hi[n] : lo[n];
      } else {
        n = hi[n];
      }
    }
    return n;
  }

  /** {@code n} given that predicate (f, c) fails: only a test of exactly (f, c) is decided. */
  private int cofactorFalse(int n, int f, long c) {
    return isNode(n) && field[n] == f && constant[n] == c ? lo[n] : n;
  }

  private static long key(int a, int b) {
    return (long) a << 32 | (b & 0xffffffffL);
  }

  // ---- storage ----

  /**
   * Frees every node not reachable from {@code roots}: the survivors are copied, children first (a
   * child is always older than its parents), into a fresh store. Returns, per old id, the new id or
   * −1; every id held outside must be renamed with it. The union cache is emptied.
   */
  public int[] compact(int... roots) {
    boolean[] live = new boolean[size];
    int[] stack = new int[Math.max(16, roots.length)];
    int top = 0;
    for (int r : roots) {
      if (!live[r]) {
        live[r] = true;
        stack = push(stack, top++, r);
      }
    }
    live[EMPTY] = true;
    while (top > 0) {
      int n = stack[--top];
      if (isNode(n)) {
        for (int c : new int[] {hi[n], lo[n]}) {
          if (!live[c]) {
            live[c] = true;
            stack = push(stack, top++, c);
          }
        }
      }
    }
    Bdd fresh = new Bdd(equality);
    int[] remap = new int[size];
    Arrays.fill(remap, -1);
    for (int n = 0; n < size; n++) {
      if (live[n]) {
        remap[n] =
            isLeaf(n)
                ? fresh.leaf(leafOf(n))
                : fresh.node(field[n], constant[n], remap[hi[n]], remap[lo[n]]);
      }
    }
    field = fresh.field;
    constant = fresh.constant;
    hi = fresh.hi;
    lo = fresh.lo;
    chainEnd = fresh.chainEnd;
    size = fresh.size;
    unique = fresh.unique;
    leaves.clear();
    leaves.addAll(fresh.leaves);
    leafIds.clear();
    leafIds.putAll(fresh.leafIds);
    cacheKeys = newCache();
    cacheValues = new int[CACHE_SIZE];
    return remap;
  }

  private static int[] push(int[] stack, int top, int v) {
    int[] s = top == stack.length ? Arrays.copyOf(stack, 2 * top) : stack;
    s[top] = v;
    return s;
  }

  private int allocate() {
    if (size == field.length) {
      int n = 2 * size;
      field = Arrays.copyOf(field, n);
      constant = Arrays.copyOf(constant, n);
      hi = Arrays.copyOf(hi, n);
      lo = Arrays.copyOf(lo, n);
      chainEnd = Arrays.copyOf(chainEnd, n);
    }
    return size++;
  }

  private void rehash() {
    int[] old = unique;
    unique = new int[2 * old.length];
    int mask = unique.length - 1;
    for (int id : old) {
      if (id != 0) {
        int n = id - 1;
        int slot = hash(field[n], constant[n], hi[n], lo[n]) & mask;
        while (unique[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        unique[slot] = id;
      }
    }
  }

  private static int hash(int f, long c, int t, int e) {
    long h = c * 0x9E3779B97F4A7C15L;
    h ^= (long) f * 0xC2B2AE3D27D4EB4FL;
    h ^= (long) t * 0x165667B19E3779F9L;
    h ^= (long) e * 0x27D4EB2F165667C5L;
    h ^= h >>> 29;
    return (int) (h ^ h >>> 32);
  }
}
