package org.netpubsub.content.index;

import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IndexLayout;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.IntCuts;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.StringCoding;

/**
 * One index dimension as the spatial index sees it: values mapped to unsigned offsets {@code 0 ..
 * sizeMinus1}.
 *
 * <p>Int attributes: {@code v − min}, order-preserving. String attributes: their {@link
 * StringCoding} (by default the first {@code min(max_length, 8)} UTF-8 bytes, zero-padded, read as
 * an unsigned big-endian number, so that byte-wise string order is kept and all strings with a
 * given prefix form one contiguous range).
 */
final class IndexDimension {
  /** Attribute {@code a} as the layout codes it: its string coding or int cuts, if any. */
  static IndexDimension of(IndexLayout layout, Attribute a) {
    return new IndexDimension(a, layout.coding(a.name()), layout.cuts().get(a.name()));
  }

  private final Attribute attribute;
  private final long sizeMinus1;
  private final StringCoding coding; // null for ints
  private final long[] cuts; // for ints coded by cuts, else null

  IndexDimension(Attribute attribute, StringCoding coding, IntCuts intCuts) {
    this.attribute = attribute;
    switch (attribute) {
      case IntAttribute i -> {
        this.cuts = intCuts == null ? null : intCuts.cuts().stream().mapToLong(x -> x).toArray();
        this.sizeMinus1 = IndexLayout.sizeMinus1(i, null, intCuts); // unsigned: ≤ 2^64 − 1
        this.coding = null;
      }
      case StringAttribute s -> {
        this.cuts = null;
        this.coding = coding;
        this.sizeMinus1 = IndexLayout.sizeMinus1(s, coding, null);
      }
    }
  }

  Attribute attribute() {
    return attribute;
  }

  StringCoding coding() {
    return coding;
  }

  /** The number of values minus one, unsigned. */
  long sizeMinus1() {
    return sizeMinus1;
  }

  /** Bits after which every cell holds one value; bits beyond it would be wasted. */
  int resolution() {
    return Codes.resolution(sizeMinus1);
  }

  /** The offset of this dimension's value in {@code event}. */
  long offset(Event event) {
    return switch (attribute) {
      case IntAttribute i -> intOffset(event.intValue(i.position()));
      case StringAttribute s -> coding.offset(s, event.stringValue(s.position()));
    };
  }

  /** The offset of an int value (unsigned); the value must be inside the domain. */
  long intOffset(long value) {
    if (cuts != null) {
      int i = java.util.Arrays.binarySearch(cuts, value);
      return i >= 0 ? i + 1 : -i - 1; // the number of cuts ≤ value
    }
    return value - ((IntAttribute) attribute).min();
  }

  /** The offset of a string value under this dimension's coding. */
  long stringOffset(String value) {
    return coding.offset((StringAttribute) attribute, value);
  }

  /** The offsets of the strings starting with {@code prefix}: {lo0, hi0, lo1, hi1, …}. */
  long[] prefixRanges(String prefix) {
    return coding.prefixRanges((StringAttribute) attribute, prefix);
  }

  /** The offsets of the topic names an MQTT filter with a wildcard matches (a superset). */
  long[] patternRanges(String filter) {
    return coding.patternRanges((StringAttribute) attribute, filter);
  }
}
