package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * A region's lookup ({@link SwitchTables#lookup(int, PacketHeaders, long, long, Cube)}, the Camus
 * check's cut) against a naive twin: every entry of the table tried in turn for every address of a
 * small universe. Random tables (ipv6_dst fields under arbitrary masks of the low 6 bits, metadata
 * matches under two masks, in_port, priorities with ties), entries added and some removed again,
 * with lookups between the changes (the index of values by metadata is built by a lookup and must
 * follow every later change); the region left holds only addresses that hit the entry returned, as
 * the twin finds it, and the region left and the parts cut off are the region given, disjoint.
 */
class RegionLookupProperties {
  private static final long HIGH = Ipv6Address.parse("ff0e::").high();

  @Property(tries = 200)
  void aRegionLookupAgreesWithTryingEveryEntryForEveryAddress(@ForAll long seed) {
    Random r = new Random(seed);
    SwitchTables t = new SwitchTables();
    List<FlowEntry> live = new ArrayList<>(); // in the order added: the oldest first
    for (int i = 1 + r.nextInt(20); i > 0; i--) {
      FlowEntry f = entry(r);
      t.add(f);
      live.add(f);
      if (r.nextInt(4) == 0) {
        FlowEntry gone = live.get(r.nextInt(live.size()));
        assertThat(t.remove(gone)).isNotNull();
        live.remove(gone); // the oldest equal one, as the index removes
      }
      if (r.nextInt(3) == 0) {
        // a lookup between changes: the per-mask metadata index it builds must follow them
        agrees(r, t, live);
      }
    }
    agrees(r, t, live);
  }

  private static void agrees(Random r, SwitchTables t, List<FlowEntry> live) {
    Set<Ipv6Address> masks = new HashSet<>(List.of(mask(0x3f)));
    live.forEach(
        f -> masks.add(f.match().ipv6Dst() == null ? mask(0) : f.match().ipv6Dst().mask()));
    MaskedIpv6 start = field(r);
    masks.add(start.mask());
    int[] segments = Box.segments(masks);
    Box region = Box.of(start, segments);
    long metadata = r.nextInt(4);
    long inPort = 1 + r.nextInt(2);
    Cube cube = new Cube(region);
    PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, cube.representative(), 7073, 7073);
    FlowEntry hit = t.lookup(0, h, inPort, metadata, cube);
    assertThat(hit).isEqualTo(naive(live, h, inPort, metadata));
    int left = 0;
    for (long low = 0; low < 64; low++) {
      Ipv6Address a = new Ipv6Address(HIGH, low);
      int in = cube.region().contains(a) ? 1 : 0;
      for (Box part : cube.cutOff()) {
        in += part.contains(a) ? 1 : 0;
      }
      assertThat(in)
          .as("%s in at most one part, and in one if in the region", a)
          .isEqualTo(region.contains(a) ? 1 : 0);
      if (cube.region().contains(a)) {
        left++;
        assertThat(naive(live, h.withIpv6Dst(a), inPort, metadata)).as("%s", a).isEqualTo(hit);
      }
    }
    assertThat(left).as("the representative stays").isPositive();
  }

  /** The twin: the highest priority matching entry, the oldest among equals. */
  private static FlowEntry naive(List<FlowEntry> live, PacketHeaders h, long inPort, long meta) {
    FlowEntry best = null;
    for (FlowEntry f : live) {
      if (f.match().matches(h, inPort, meta) && (best == null || f.priority() > best.priority())) {
        best = f;
      }
    }
    return best;
  }

  private static Ipv6Address mask(long low) {
    return new Ipv6Address(-1L, ~0x3fL | low);
  }

  private static MaskedIpv6 field(Random r) {
    long m = r.nextInt(3) == 0 ? r.nextInt(64) : (0x3f << r.nextInt(6)) & 0x3f; // any, or a prefix
    return new MaskedIpv6(new Ipv6Address(HIGH, r.nextInt(64) & m), mask(m));
  }

  private static FlowEntry entry(Random r) {
    Match.Builder m = Match.builder().udp6();
    if (r.nextInt(5) > 0) {
      m.ipv6Dst(field(r));
    }
    switch (r.nextInt(4)) {
      case 0 -> m.metadata(r.nextInt(2), 1);
      case 1 -> m.metadata(r.nextInt(4), 3);
      default -> {}
    }
    if (r.nextInt(5) == 0) {
      m.inPort(1 + r.nextInt(2));
    }
    return FlowEntry.builder()
        .priority(r.nextInt(4))
        .match(m.build())
        .apply(new Action.Output(1 + r.nextInt(3)))
        .build();
  }
}
