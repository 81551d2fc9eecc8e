package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * A region's lookup ({@link SwitchTables#lookup(int, PacketHeaders, long, long, Cube)}, the Camus
 * check's cut) against a naive twin: every entry of the table tried in turn for every address of a
 * small universe. Random tables (ipv6_dst fields under arbitrary masks of the low 6 bits, metadata
 * matches under two masks, in_port, priorities with ties), entries added and some removed again,
 * with lookups between the changes (the index of values by metadata is built by a lookup and must
 * follow every later change); the representative hits the entry returned, as the twin finds it,
 * every address left hits an entry with its instructions (the same entry, or one that does the
 * same: a lookup narrows into alike entries' union since stop 44), and the region left and the
 * parts cut off are the region given, disjoint.
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

  /**
   * As above on tables of ranges (each one entry per TCAM prefix, the same priority, match and
   * instructions), overlapping at random, a few instructions among them: the lookup joins alike
   * prefixes, so one of other instructions between them in lookup order must keep it from joining
   * what that entry wins (a lookup that joins across it fails here within 200 tries; the property
   * above needs thousands).
   */
  @Property(tries = 200)
  void aRangeTableLookupAgreesWithTryingEveryEntryForEveryAddress(@ForAll long seed) {
    Random r = new Random(seed);
    SwitchTables t = new SwitchTables();
    List<FlowEntry> live = new ArrayList<>();
    for (int i = 2 + r.nextInt(10); i > 0; i--) {
      int lo = r.nextInt(64);
      int hi = lo + r.nextInt(64 - lo);
      int priority = r.nextInt(4);
      int out = 1 + r.nextInt(2);
      int metadata = r.nextInt(3) == 0 ? r.nextInt(4) : -1;
      for (long[] p : prefixes(lo, hi)) {
        Match.Builder m =
            Match.builder().udp6().ipv6Dst(new MaskedIpv6(new Ipv6Address(HIGH, p[0]), mask(p[1])));
        if (metadata >= 0) {
          m.metadata(metadata, 3);
        }
        FlowEntry f =
            FlowEntry.builder()
                .priority(r.nextInt(8) == 0 ? r.nextInt(4) : priority) // now and then not alike
                .match(m.build())
                .apply(new Action.Output(out))
                .build();
        t.add(f);
        live.add(f);
      }
      if (r.nextInt(3) == 0) {
        agrees(r, t, live);
      }
    }
    agrees(r, t, live);
  }

  /** [lo, hi] of the low 6 bits as prefixes: (value, mask) pairs, ascending. */
  private static List<long[]> prefixes(long lo, long hi) {
    List<long[]> out = new ArrayList<>();
    while (lo <= hi) {
      long size = 1;
      while (size < 64 && lo % (size * 2) == 0 && lo + size * 2 - 1 <= hi) {
        size *= 2;
      }
      out.add(new long[] {lo, 0x3f & ~(size - 1)});
      lo += size;
    }
    return out;
  }

  /**
   * A field table as Camus writes it: two ranges, each one entry per TCAM prefix of the same
   * priority and instructions, and a default below them. The region is cut per range (3 parts: each
   * range and the rest), not per prefix (before stop 44: one part per prefix, 8 here).
   */
  @Example
  void aRangesPrefixesCutTheRegionOnce() {
    SwitchTables t = new SwitchTables();
    long[][] a = {{0, 0x30}, {16, 0x3e}}; // [0, 17]
    long[][] b = {{20, 0x3c}, {24, 0x38}, {32, 0x30}, {48, 0x3e}, {50, 0x3f}}; // [20, 50]
    List<Ipv6Address> masks = new ArrayList<>(List.of(mask(0)));
    for (long[][] range : List.of(a, b)) {
      for (long[] p : range) {
        MaskedIpv6 f = new MaskedIpv6(new Ipv6Address(HIGH, p[0]), mask(p[1]));
        masks.add(f.mask());
        t.add(
            FlowEntry.builder()
                .priority(1)
                .match(Match.builder().udp6().ipv6Dst(f).build())
                .apply(new Action.Output(range == a ? 1 : 2))
                .build());
      }
    }
    FlowEntry rest = FlowEntry.builder().priority(0).match(Match.builder().udp6().build()).build();
    t.add(rest);
    int[] segments = Box.segments(masks);
    Cube whole = new Cube(Box.of(new MaskedIpv6(new Ipv6Address(HIGH, 0), mask(0)), segments));
    PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, whole.representative(), 7073, 7073);
    assertThat(t.lookup(0, h, 1, 0, whole).instructions()).isEqualTo(List.of(applyOutput(1)));
    assertThat(whole.cutOff()).hasSize(1);
    Cube others = new Cube(whole.cutOff().getFirst());
    h = h.withIpv6Dst(others.representative());
    assertThat(t.lookup(0, h, 1, 0, others)).isEqualTo(rest);
    assertThat(others.cutOff()).hasSize(1);
    for (long low = 0; low < 64; low++) {
      Ipv6Address x = new Ipv6Address(HIGH, low);
      assertThat(whole.region().contains(x)).as("%d", low).isEqualTo(low <= 17);
      assertThat(others.cutOff().getFirst().contains(x))
          .as("%d", low)
          .isEqualTo(20 <= low && low <= 50);
    }
  }

  private static Instruction applyOutput(long port) {
    return new Instruction.ApplyActions(List.of(new Action.Output(port)));
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
        FlowEntry its = naive(live, h.withIpv6Dst(a), inPort, metadata);
        assertThat(its == null ? null : its.instructions())
            .as("%s hits an entry that does what the representative's does", a)
            .isEqualTo(hit == null ? null : hit.instructions());
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
