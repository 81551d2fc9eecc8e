package org.netpubsub.network.pleroma;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;

/**
 * Publishing enforced at the first switch (docs/security.md): the drops that keep a host port from
 * injecting a content address outside the cells its hosts advertised. The content space {@code
 * ff0e::/16} less those cells is cut into the fewest prefixes, one drop entry each (in_port, IPv6
 * destination prefix, no action). Only drops: an allowed address matches none of them and goes on
 * to the content flows below, so no second table is needed. One priority suffices because the
 * prefixes are disjoint.
 */
public final class IngressDrops {
  public static final long COOKIE = SwitchLayout.INGRESS_COOKIE;

  public static final int PRIORITY = SwitchLayout.PRIORITY_INGRESS_DROP;

  private IngressDrops() {}

  /**
   * The dz prefixes of the content space that no cell of {@code allowed} covers, disjoint and as
   * few as a prefix cut allows (at most the sum of the cells' lengths); all of it for none.
   */
  public static List<Dz> outside(DzSet allowed) {
    List<Dz> out = new ArrayList<>();
    cut(Dz.EMPTY, allowed, out);
    return out;
  }

  private static void cut(Dz p, DzSet allowed, List<Dz> out) {
    if (allowed.covers(p)) {
      return;
    }
    boolean touched = false;
    for (Dz cell : allowed) {
      if (cell.overlaps(p)) {
        touched = true;
        break;
      }
    }
    if (!touched) {
      out.add(p);
      return;
    }
    // a cell lies strictly inside p (else covers or no overlap), so p is shorter than the max
    cut(p.append(0), allowed, out);
    cut(p.append(1), allowed, out);
  }

  /** The drop entries of one host port: content addresses outside {@code allowed}. */
  public static List<FlowEntry> entries(long port, DzSet allowed) {
    return outside(allowed).stream().map(dz -> entry(port, dz)).toList();
  }

  static FlowEntry entry(long port, Dz dz) {
    return FlowEntry.builder()
        .table(SwitchLayout.TABLE_0)
        .priority(PRIORITY)
        .cookie(COOKIE)
        .match(
            Match.builder()
                .inPort(port)
                .ipv6()
                .ipv6Dst(MaskedIpv6.prefix(ContentFlows.address(dz), 16 + dz.length()))
                .build())
        .build();
  }
}
