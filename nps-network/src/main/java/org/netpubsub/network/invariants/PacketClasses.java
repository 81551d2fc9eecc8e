package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;

/**
 * VeriFlow's equivalence classes of the {@code ipv6_dst} header space: two addresses are in one
 * class when every {@code ipv6_dst} field of the network (any mask, CIDR or not) either holds both
 * or neither, so every table treats them alike. {@link #representatives} gives one address per
 * class inside a region: the region is split on the bits that some field fixes and it leaves free,
 * until no field cuts a part, and parts in the same fields are one class.
 */
final class PacketClasses {
  private PacketClasses() {}

  /** One address per class that meets {@code region}, given every field of the network. */
  static List<Ipv6Address> representatives(MaskedIpv6 region, Collection<MaskedIpv6> fields) {
    List<MaskedIpv6> cutting = new ArrayList<>();
    for (MaskedIpv6 f : fields) {
      if (f.overlaps(region) && !f.covers(region)) {
        cutting.add(f);
      }
    }
    List<Ipv6Address> out = new ArrayList<>();
    Set<BitSet> seen = new HashSet<>();
    split(region, cutting, cutting, seen, out);
    return out;
  }

  private static void split(
      MaskedIpv6 part,
      List<MaskedIpv6> cutting,
      List<MaskedIpv6> all,
      Set<BitSet> seen,
      List<Ipv6Address> out) {
    if (cutting.isEmpty()) {
      BitSet in = new BitSet(all.size());
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).covers(part)) {
          in.set(i);
        }
      }
      if (seen.add(in)) {
        out.add(part.value());
      }
      return;
    }
    // the highest bit the first cutting field fixes and the part leaves free
    MaskedIpv6 f = cutting.get(0);
    long hi = f.mask().high() & ~part.mask().high();
    long lo = f.mask().low() & ~part.mask().low();
    Ipv6Address bit =
        hi != 0
            ? new Ipv6Address(Long.highestOneBit(hi), 0)
            : new Ipv6Address(0, Long.highestOneBit(lo));
    Ipv6Address mask = part.mask().or(bit);
    for (Ipv6Address value : List.of(part.value(), part.value().or(bit))) {
      MaskedIpv6 half = new MaskedIpv6(value, mask);
      List<MaskedIpv6> still = new ArrayList<>();
      for (MaskedIpv6 c : cutting) {
        if (c.overlaps(half) && !c.covers(half)) {
          still.add(c);
        }
      }
      split(half, still, all, seen, out);
    }
  }
}
