package org.netpubsub.network.openflow;

import org.netpubsub.content.address.Ipv6Address;

/**
 * An IPv6 match field: value and arbitrary (also non-CIDR) mask, as OpenFlow 1.3's OXM
 * IPV6_SRC/IPV6_DST with mask. The value is kept ANDed with the mask, as switches store it.
 */
public record MaskedIpv6(Ipv6Address value, Ipv6Address mask) {
  public MaskedIpv6 {
    if (value == null || mask == null) {
      throw new IllegalArgumentException("value and mask are required");
    }
    value = value.and(mask);
  }

  public static MaskedIpv6 exact(Ipv6Address address) {
    return new MaskedIpv6(address, Ipv6Address.ALL_ONES);
  }

  public static MaskedIpv6 prefix(Ipv6Address address, int length) {
    return new MaskedIpv6(address, Ipv6Address.prefixMask(length));
  }

  public static MaskedIpv6 of(Ipv6Address value, Ipv6Address mask) {
    return new MaskedIpv6(value, mask);
  }

  /** Parses {@code addr}, {@code addr/len} or {@code addr/mask} (the forms ovs-ofctl prints). */
  public static MaskedIpv6 parse(String text) {
    int slash = text.indexOf('/');
    if (slash < 0) {
      return exact(Ipv6Address.parse(text));
    }
    Ipv6Address value = Ipv6Address.parse(text.substring(0, slash));
    String m = text.substring(slash + 1).trim();
    if (!m.isEmpty() && m.chars().allMatch(Character::isDigit)) {
      return prefix(value, Integer.parseInt(m));
    }
    return new MaskedIpv6(value, Ipv6Address.parse(m));
  }

  public boolean matches(Ipv6Address address) {
    return address.and(mask).equals(value);
  }

  public boolean isExact() {
    return mask.equals(Ipv6Address.ALL_ONES);
  }

  /** True if every address this field matches is matched by {@code this} — field-wise cover. */
  public boolean covers(MaskedIpv6 other) {
    return other.mask.and(mask).equals(mask) && other.value.and(mask).equals(value);
  }

  /** True if some address matches both. */
  public boolean overlaps(MaskedIpv6 other) {
    return value.xor(other.value).and(mask).and(other.mask).isZero();
  }

  /** {@code addr}, {@code addr/len} for a CIDR mask, else {@code addr/mask} — as ovs-ofctl. */
  // equals and hashCode as a record's, written out (see Ipv6Address).
  @Override
  public boolean equals(Object o) {
    return this == o || o instanceof MaskedIpv6 m && value.equals(m.value) && mask.equals(m.mask);
  }

  @Override
  public int hashCode() {
    return 31 * value.hashCode() + mask.hashCode();
  }

  @Override
  public String toString() {
    if (isExact()) {
      return value.toString();
    }
    int length = mask.prefixLength();
    return value + "/" + (length >= 0 ? Integer.toString(length) : mask.toString());
  }
}
