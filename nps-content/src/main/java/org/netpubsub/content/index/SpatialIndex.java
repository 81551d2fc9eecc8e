package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IndexLayout;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringCoding;

/**
 * PLEROMA's spatial index (§III-A): maps an event to the dz of length L of the cell it lies in, and
 * a filter to a set of dz cells covering every event it matches.
 *
 * <p>Bit i halves the current interval of one index dimension; dimensions take turns in the order
 * of {@link Schema#indexDimensions()} (P, V, P, V, … in the paper's Figure 2). Refinement: a
 * dimension whose cells already hold single values (2^k ≥ its number of values) is skipped in the
 * rotation, so no bit is wasted; once every dimension is resolved, the remaining bits are 0. An int
 * value v of domain [min, max] has the k-bit code floor((v − min) · 2^k / (max − min + 1)); strings
 * are coded by their {@link StringCoding} (see {@link IndexDimension}). The schema's {@link
 * IndexLayout} may name the dimension of the first bits explicitly; the rest take turns as above.
 *
 * <p>Immutable and thread-safe.
 */
public final class SpatialIndex {
  /** The cell budget of {@link #cover(Dnf)}: a few dozen flows per subscription. */
  public static final int DEFAULT_MAX_CELLS = 64;

  /** Budgets above this are capped: larger covers are impractical as flow tables anyway. */
  public static final int MAX_CELLS_LIMIT = 1 << 16;

  private final Schema schema;
  private final int length;
  private final IndexDimension[] dims;
  private final int[] dimAt; // per bit: index into dims, or -1 once every dimension is resolved
  private final int[] bitsOf; // per dimension: how many of the L bits it gets

  public SpatialIndex(Schema schema, int length) {
    if (length < 1 || length > Dz.MAX_LENGTH) {
      throw new IllegalArgumentException(
          "index length " + length + " is outside 1.." + Dz.MAX_LENGTH);
    }
    this.schema = schema;
    this.length = length;
    IndexLayout layout = schema.layout();
    List<Attribute> index = schema.indexDimensions();
    this.dims = new IndexDimension[index.size()];
    List<String> names = new ArrayList<>();
    for (int d = 0; d < dims.length; d++) {
      dims[d] = IndexDimension.of(layout, index.get(d));
      names.add(index.get(d).name());
    }
    if (layout.bits().size() > length) {
      throw new IllegalArgumentException(
          "layout.bits: " + layout.bits().size() + " bits, more than the dz length " + length);
    }
    this.dimAt = new int[length];
    this.bitsOf = new int[dims.length];
    for (int i = 0; i < layout.bits().size(); i++) {
      int d = names.indexOf(layout.bits().get(i));
      if (++bitsOf[d] > dims[d].resolution()) {
        throw new IllegalArgumentException(
            "layout.bits: more than "
                + dims[d].resolution()
                + " bits of '"
                + names.get(d)
                + "', which "
                + dims[d].resolution()
                + " bits resolve");
      }
      dimAt[i] = d;
    }
    int turn = 0;
    for (int i = layout.bits().size(); i < length; i++) {
      dimAt[i] = -1;
      for (int tried = 0; tried < dims.length; tried++) {
        int d = (turn + tried) % dims.length;
        if (bitsOf[d] < dims[d].resolution()) {
          dimAt[i] = d;
          bitsOf[d]++;
          turn = d + 1;
          break;
        }
      }
    }
  }

  /** An index whose length resolves every value, or 112 bits if that is less. */
  public static SpatialIndex withDefaultLength(Schema schema) {
    return new SpatialIndex(schema, defaultLength(schema));
  }

  /**
   * The length of the schema's layout's explicit bits if it has any; else min(112, Σ over index
   * dimensions of ceil(log2(values))): the bits that resolve every value (at least 1).
   */
  public static int defaultLength(Schema schema) {
    if (!schema.layout().bits().isEmpty()) {
      return schema.layout().bits().size();
    }
    int sum = 0;
    for (Attribute a : schema.indexDimensions()) {
      sum += IndexDimension.of(schema.layout(), a).resolution();
    }
    return Math.max(1, Math.min(Dz.MAX_LENGTH, sum));
  }

  public Schema schema() {
    return schema;
  }

  /** L: the length of every event's dz and the longest cell of a cover. */
  public int length() {
    return length;
  }

  /** The index dimension that each bit refines, by name ("" for a padding bit). */
  public List<String> bitOrder() {
    List<String> out = new ArrayList<>(length);
    for (int d : dimAt) {
      out.add(d < 0 ? "" : dims[d].attribute().name());
    }
    return out;
  }

  /** The dz of length L of the cell holding {@code event}. */
  public Dz dz(Event event) {
    if (!event.schema().attributes().equals(schema.attributes())) {
      throw new IllegalArgumentException(
          "event of schema " + event.schema().name() + " given to an index of " + schema.name());
    }
    return dz(offsets(event));
  }

  /** The bits that resolve index dimension {@code d} under its coding. */
  int resolution(int d) {
    return dims[d].resolution();
  }

  /** The offsets of {@code event} along the index dimensions (see {@link #dz(long[])}). */
  long[] offsets(Event event) {
    long[] offsets = new long[dims.length];
    for (int d = 0; d < dims.length; d++) {
      offsets[d] = dims[d].offset(event);
    }
    return offsets;
  }

  /** The dz of the event with these offsets: for callers that place many events repeatedly. */
  Dz dz(long[] offsets) {
    long[] codes = new long[dims.length];
    for (int d = 0; d < dims.length; d++) {
      codes[d] = Codes.code(offsets[d], dims[d].sizeMinus1(), bitsOf[d]);
    }
    int[] taken = new int[dims.length];
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < length; i++) {
      int d = dimAt[i];
      if (d < 0) {
        break;
      }
      long bit = codes[d] >>> (bitsOf[d] - ++taken[d]) & 1;
      if (i < 64) {
        hi |= bit << (63 - i);
      } else {
        lo |= bit << (127 - i);
      }
    }
    return Dz.of(hi, lo, length);
  }

  /** The content address of {@code event}: {@code ff0e::/16} followed by its dz. */
  public ContentAddress address(Event event) {
    return ContentAddress.of(dz(event));
  }

  /** {@link #cover(Dnf, int)} with {@link #DEFAULT_MAX_CELLS}. */
  public DzSet cover(Dnf dnf) {
    return cover(dnf, DEFAULT_MAX_CELLS);
  }

  /**
   * Cells of length ≤ L covering the dz of every event that {@code dnf} matches — never a false
   * negative; it may over-approximate. Per conjunction, the box of its index-dimension constraints
   * is decomposed into at most {@code maxCells} cells (see {@link BoxDecomposer}); the union is
   * coarsened ({@link DzSet#coarsen}) when it has more. Non-index attributes and aggregates do not
   * narrow the cover. {@code maxCells} above {@link #MAX_CELLS_LIMIT} is capped.
   */
  public DzSet cover(Dnf dnf, int maxCells) {
    if (maxCells < 1) {
      throw new IllegalArgumentException("maxCells must be at least 1, got " + maxCells);
    }
    int budget = Math.min(maxCells, MAX_CELLS_LIMIT);
    List<Dz> cells = new ArrayList<>();
    for (Conjunction conjunction : dnf.conjunctions()) {
      AcceptedRanges[] ranges = new AcceptedRanges[dims.length];
      boolean empty = false;
      for (int d = 0; d < dims.length && !empty; d++) {
        ranges[d] =
            AcceptedRanges.of(dims[d], conjunction.constraint(dims[d].attribute().position()));
        empty = ranges[d].isEmpty();
      }
      if (!empty) {
        new BoxDecomposer(dims, dimAt, ranges).decompose(budget, cells);
      }
    }
    return DzSet.of(cells).coarsen(budget);
  }
}
