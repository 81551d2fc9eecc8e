package org.netpubsub.network.camus.openflow;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.netpubsub.compiler.domain.ConstraintDomains;
import org.netpubsub.compiler.domain.FieldConstraints;
import org.netpubsub.compiler.domain.IntervalSet;
import org.netpubsub.compiler.pipeline.Tcam;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * Publishing enforced at the first switch with Camus routing (docs/security.md): a host port
 * forwards only the query addresses whose carried fields lie in what its hosts advertised (each
 * advertisement cut to {@code filter ∧ advertise region}); every other address of {@code ff0e::/16}
 * from that port is dropped. Camus addresses pack several fields, so the allowed region is a union
 * of boxes: per conjunction, each carried field's allowed values as bit prefixes ({@link Tcam}),
 * one masked destination per combination. An allow entry (one priority above the drop) matches the
 * port, a box, UDP and the event port, and goes on to the Camus pipeline as the Camus entry does;
 * the port's drop of {@code ff0e::/16} below catches the rest. Fields that are not carried,
 * constraints the compiler can only widen, and the fields of a conjunction over {@link #MAX_BOXES}
 * boxes allow any value: the allowed region holds the advertisements, never less.
 */
public final class QueryIngress {
  public static final long COOKIE = SwitchLayout.INGRESS_COOKIE;

  /** The drop of the whole query space from a port (the same priority as PLEROMA's drops). */
  public static final int DROP_PRIORITY = SwitchLayout.PRIORITY_INGRESS_DROP;

  /** An allowed box: above the drop, so it wins. */
  public static final int ALLOW_PRIORITY = SwitchLayout.PRIORITY_INGRESS_DROP + 1;

  /** The most boxes one conjunction becomes; beyond, its fields with most prefixes go unchecked. */
  public static final int MAX_BOXES = 256;

  private QueryIngress() {}

  /** The masked destinations a port's hosts may send to, for their advertisements {@code dnfs}. */
  public static List<MaskedIpv6> boxes(QueryAddressLayout layout, List<Dnf> dnfs) {
    MessageSpec spec = layout.carried();
    Set<MaskedIpv6> out = new LinkedHashSet<>();
    for (Dnf d : dnfs) {
      for (Conjunction c : d.conjunctions()) {
        FieldConstraints fc = ConstraintDomains.of(spec, c);
        if (fc.isUnsatisfiable()) {
          continue;
        }
        List<List<long[]>> perField = new ArrayList<>();
        for (int f = 0; f < spec.fields().size(); f++) {
          IntervalSet s = fc.field(f);
          int width = spec.field(f).width();
          perField.add(s == null ? List.of(ANY) : prefixes(s, width));
        }
        widen(perField);
        product(layout, perField, 0, QueryAddressLayout.prefix(), out);
      }
    }
    return List.copyOf(out);
  }

  /** A port's entries: an allow per box (to {@code firstTable}), then the drop of the rest. */
  public static List<FlowEntry> entries(
      QueryAddressLayout layout, long port, List<Dnf> dnfs, int firstTable, int eventPort) {
    List<FlowEntry> out = new ArrayList<>();
    for (MaskedIpv6 box : boxes(layout, dnfs)) {
      out.add(
          FlowEntry.builder()
              .table(SwitchLayout.TABLE_0)
              .priority(ALLOW_PRIORITY)
              .cookie(COOKIE)
              .match(
                  Match.builder()
                      .inPort(port)
                      .ethType(PacketHeaders.ETH_TYPE_IPV6)
                      .ipv6Dst(box)
                      .ipProto(PacketHeaders.IP_PROTO_UDP)
                      .udpDst(eventPort)
                      .build())
              .gotoTable(firstTable)
              .build());
    }
    out.add(
        FlowEntry.builder()
            .table(SwitchLayout.TABLE_0)
            .priority(DROP_PRIORITY)
            .cookie(COOKIE)
            .match(Match.builder().inPort(port).ipv6().ipv6Dst(QueryAddressLayout.prefix()).build())
            .build());
    return out;
  }

  /** A prefix of length 0: any value. */
  private static final long[] ANY = {0, 0};

  private static List<long[]> prefixes(IntervalSet s, int width) {
    List<long[]> out = new ArrayList<>();
    for (int i = 0; i < s.intervals(); i++) {
      out.addAll(Tcam.expand(s.lo(i), s.hi(i), width));
    }
    return out;
  }

  /**
   * Lets the fields with most prefixes take any value until the product fits {@link #MAX_BOXES}.
   */
  private static void widen(List<List<long[]>> perField) {
    while (true) {
      long product = 1;
      int widest = -1;
      for (int f = 0; f < perField.size(); f++) {
        int n = perField.get(f).size();
        product *= n;
        if (widest < 0 || n > perField.get(widest).size()) {
          widest = f;
        }
        product = Math.min(product, Long.MAX_VALUE / (MAX_BOXES + 1));
      }
      if (product <= MAX_BOXES) {
        return;
      }
      perField.set(widest, List.of(ANY));
    }
  }

  private static void product(
      QueryAddressLayout layout,
      List<List<long[]>> perField,
      int f,
      MaskedIpv6 sofar,
      Set<MaskedIpv6> out) {
    if (f == perField.size()) {
      out.add(sofar);
      return;
    }
    for (long[] p : perField.get(f)) {
      MaskedIpv6 m = layout.match(f, p[0], (int) p[1]);
      Ipv6Address value = sofar.value().or(m.value());
      Ipv6Address mask = sofar.mask().or(m.mask());
      product(layout, perField, f + 1, MaskedIpv6.of(value, mask), out);
    }
  }
}
