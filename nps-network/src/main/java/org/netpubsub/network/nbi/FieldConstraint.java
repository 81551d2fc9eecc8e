package org.netpubsub.network.nbi;

import java.util.Comparator;
import org.netpubsub.network.openflow.MaskedIpv6;

/**
 * One condition of a topic: the packet has {@code field} and its value ANDed with {@code mask}
 * equals {@code value}. The value is kept ANDed with the mask (as switches keep masked matches), so
 * equal conditions compare equal; a zero mask is a wildcard that topics drop.
 */
public record FieldConstraint(TopicField field, FieldValue value, FieldValue mask)
    implements Comparable<FieldConstraint> {

  /** Header fields in declaration order, then byte windows by offset and length. */
  private static final Comparator<TopicField> FIELD_ORDER =
      Comparator.comparingInt(
              (TopicField f) -> f instanceof HeaderField h ? h.ordinal() : Integer.MAX_VALUE)
          .thenComparingInt(f -> f instanceof ByteWindow w ? w.offset() : 0)
          .thenComparingInt(f -> f instanceof ByteWindow w ? w.length() : 0);

  private static final Comparator<FieldValue> VALUE_ORDER =
      Comparator.comparing(FieldValue::high, Long::compareUnsigned)
          .thenComparing(FieldValue::low, Long::compareUnsigned);

  private static final Comparator<FieldConstraint> ORDER =
      Comparator.comparing(FieldConstraint::field, FIELD_ORDER)
          .thenComparing(FieldConstraint::mask, VALUE_ORDER)
          .thenComparing(FieldConstraint::value, VALUE_ORDER);

  public FieldConstraint {
    if (field == null || value == null || mask == null) {
      throw new IllegalArgumentException("a constraint has a field, a value and a mask");
    }
    FieldValue full = field.fullMask();
    if (!value.within(full) || !mask.within(full)) {
      throw new IllegalArgumentException(field + " has " + field.bits() + " bits: " + value);
    }
    if (!field.maskable() && !mask.equals(full) && !mask.isZero()) {
      throw new IllegalArgumentException(field + " takes no mask");
    }
    value = value.and(mask);
  }

  /** The field equals {@code value}. */
  public static FieldConstraint exact(TopicField field, long value) {
    return new FieldConstraint(field, FieldValue.of(value), field.fullMask());
  }

  /** An IPv6 address field ({@link HeaderField#IPV6_SRC} or {@code _DST}) in {@code m}. */
  public static FieldConstraint ipv6(HeaderField field, MaskedIpv6 m) {
    return new FieldConstraint(field, FieldValue.of(m.value()), FieldValue.of(m.mask()));
  }

  /** The bytes at {@code offset} equal {@code value} where {@code mask} has ones. */
  public static FieldConstraint bytes(int offset, byte[] mask, byte[] value) {
    if (mask.length != value.length) {
      throw new IllegalArgumentException("mask and value differ in length");
    }
    ByteWindow w = new ByteWindow(offset, value.length);
    return new FieldConstraint(
        w, FieldValue.ofBytes(value, 0, value.length), FieldValue.ofBytes(mask, 0, mask.length));
  }

  /** True if the mask is zero: every packet, even one without the field, passes. */
  public boolean isWildcard() {
    return mask.isZero();
  }

  /** True if the packet has the field and its masked value is {@code value}. */
  public boolean matches(PacketInView packet) {
    FieldValue v = field.read(packet);
    return v != null && v.and(mask).equals(value);
  }

  @Override
  public int compareTo(FieldConstraint o) {
    return ORDER.compare(this, o);
  }

  /** The constraint in topic syntax. */
  @Override
  public String toString() {
    return field.format(value, mask);
  }
}
