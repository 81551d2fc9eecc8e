package org.netpubsub.compiler.pipeline;

/**
 * What a field-table entry matches on the field, besides its state: one value (exact, SRAM), a
 * range of values (TCAM once expanded to prefixes), or any value (the state's default, below the
 * others in priority).
 */
public sealed interface Match {
  /** Whether {@code v} (unsigned) matches. */
  boolean matches(long v);

  record Value(long value) implements Match {
    @Override
    public boolean matches(long v) {
      return v == value;
    }

    @Override
    public String toString() {
      return Long.toUnsignedString(value);
    }
  }

  /** [lo, hi], unsigned, lo < hi (a single value is a {@link Value}). */
  record Range(long lo, long hi) implements Match {
    @Override
    public boolean matches(long v) {
      return Long.compareUnsigned(v, lo) >= 0 && Long.compareUnsigned(v, hi) <= 0;
    }

    @Override
    public String toString() {
      return "[" + Long.toUnsignedString(lo) + ", " + Long.toUnsignedString(hi) + "]";
    }
  }

  record Any() implements Match {
    @Override
    public boolean matches(long v) {
      return true;
    }

    @Override
    public String toString() {
      return "*";
    }
  }

  Any ANY = new Any();

  /** [lo, hi] as a match: a value when lo = hi. */
  static Match of(long lo, long hi) {
    return lo == hi ? new Value(lo) : new Range(lo, hi);
  }
}
