package org.netpubsub.compiler.target.p4;

/**
 * What one key field of a P4 table entry matches (P4Runtime's {@code FieldMatch}); values are
 * unsigned. A don't-care field (a ternary mask of 0, an lpm of length 0) has no KeyMatch at all:
 * P4Runtime omits it.
 */
public sealed interface KeyMatch {
  /** Whether the value {@code v} of a {@code width}-bit key field matches. */
  boolean matches(long v, int width);

  KeyKind kind();

  record Exact(long value) implements KeyMatch {
    @Override
    public boolean matches(long v, int width) {
      return v == value;
    }

    @Override
    public KeyKind kind() {
      return KeyKind.EXACT;
    }
  }

  record Ternary(long value, long mask) implements KeyMatch {
    public Ternary {
      if ((value & ~mask) != 0) {
        throw new IllegalArgumentException(
            "ternary value "
                + Long.toUnsignedString(value)
                + " has bits outside its mask "
                + Long.toUnsignedString(mask));
      }
    }

    @Override
    public boolean matches(long v, int width) {
      return (v & mask) == value;
    }

    @Override
    public KeyKind kind() {
      return KeyKind.TERNARY;
    }
  }

  record Range(long low, long high) implements KeyMatch {
    public Range {
      if (Long.compareUnsigned(low, high) > 0) {
        throw new IllegalArgumentException(
            "range low "
                + Long.toUnsignedString(low)
                + " is above high "
                + Long.toUnsignedString(high));
      }
    }

    @Override
    public boolean matches(long v, int width) {
      return Long.compareUnsigned(v, low) >= 0 && Long.compareUnsigned(v, high) <= 0;
    }

    @Override
    public KeyKind kind() {
      return KeyKind.RANGE;
    }
  }

  /** The values whose top {@code length} bits (of the key's width) are those of {@code value}. */
  record Lpm(long value, int length) implements KeyMatch {
    public Lpm {
      if (length < 0 || length > 64) {
        throw new IllegalArgumentException("prefix_len " + length + " is outside 0..64");
      }
    }

    static Lpm of(Prefix p) {
      return new Lpm(p.value(), p.length());
    }

    /** As a prefix of a {@code width}-bit field; IllegalArgumentException if it is none. */
    public Prefix prefix(int width) {
      return new Prefix(value, length, width);
    }

    @Override
    public boolean matches(long v, int width) {
      return (v & Prefix.mask(length, width)) == value;
    }

    @Override
    public KeyKind kind() {
      return KeyKind.LPM;
    }
  }
}
