package org.netpubsub.network.invariants;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;

/**
 * A region of destinations ({@link Box}) walked as one, header space style: one run of a switch's
 * pipeline, on the region's least address ({@link #representative}), cuts the region until every
 * {@code ipv6_dst} field the run's lookups meet holds all of it or none of it, so each address left
 * behaves as the representative does. The parts cut off, disjoint, are walked after it. This keeps
 * the classes per query field lazy: a region is cut only by the fields some lookup on its path
 * tests, and a field table cuts it into one box per class of values whose entries do the same (a
 * range's prefixes together) and one box for the rest.
 */
final class Cube {
  private Box region;
  private final Ipv6Address representative;
  private final Deque<Box> cutOff = new ArrayDeque<>();

  Cube(Box region) {
    this.region = region;
    this.representative = region.representative();
  }

  Box region() {
    return region;
  }

  /** The address a run takes for the whole region; cutting keeps it inside. */
  Ipv6Address representative() {
    return representative;
  }

  /** The parts cut off so far, to be walked on their own. */
  Deque<Box> cutOff() {
    return cutOff;
  }

  /** Whether every address left has the same bits under {@code mask}. */
  boolean fixes(Ipv6Address mask) {
    return region.fixes(mask);
  }

  boolean overlaps(MaskedIpv6 field) {
    return region.overlaps(field);
  }

  /** Cuts the region to the part inside {@code u}, which holds the representative. */
  void narrowInto(Box u) {
    take(region.into(u));
  }

  /** Cuts the region to the part outside {@code u}, which does not hold the representative. */
  void narrowOutOf(Box u) {
    take(region.outOf(u));
  }

  /** The field as a box of the region's segments. */
  Box shaped(MaskedIpv6 field) {
    return region.shaped(field);
  }

  private void take(List<Box> parts) {
    region = parts.get(0);
    cutOff.addAll(parts.subList(1, parts.size()));
  }

  /** The addresses in both, or null when they share none. */
  static MaskedIpv6 intersection(MaskedIpv6 a, MaskedIpv6 b) {
    if (!a.overlaps(b)) {
      return null;
    }
    return new MaskedIpv6(a.value().or(b.value()), a.mask().or(b.mask()));
  }
}
