package org.netpubsub.network.pleroma;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.ContentAddress;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;

/**
 * Content flows as OpenFlow entries (PLEROMA §III-B b): match UDP to {@link #EVENT_PORT} whose
 * {@code ipv6_dst} lies in the dz's prefix of {@code ff0e::/16}, priority {@link #PRIORITY_BASE} +
 * dz length (the longest dz wins), then output to each plain egress and, per subscriber behind a
 * port, rewrite the destination to it and output.
 */
public final class ContentFlows {
  /** The UDP port events are sent to. */
  public static final int EVENT_PORT = 7073;

  /** The table content flows live in (beside the base forwarding app's unicast entries). */
  public static final int TABLE = SwitchLayout.TABLE_0;

  /** Above unicast forwarding, below ND and LLDP; plus dz length (0..112). */
  public static final int PRIORITY_BASE = SwitchLayout.CONTENT_PRIORITY_BASE;

  /** "NPS" and app number 2 (PLEROMA content flows). */
  public static final long COOKIE = SwitchLayout.CONTENT_COOKIE;

  private ContentFlows() {}

  /**
   * The content address prefix of a dz, as an IPv6 address (dz bits after ff0e, then zeros: the
   * address {@link ContentAddress#bytes} spell).
   */
  public static Ipv6Address address(Dz dz) {
    long prefix = (long) ContentAddress.PREFIX << 48;
    return new Ipv6Address(prefix | dz.hi() >>> 16, dz.hi() << 48 | dz.lo() >>> 16);
  }

  // What every content match shares, built once: matches copy its boxed fields, so a switch
  // comparing two of them finds those fields identical without reading them.
  private static final Match CONTENT = Match.builder().udp6().udpDst(EVENT_PORT).build();

  public static Match match(Dz dz) {
    return CONTENT.toBuilder().ipv6Dst(MaskedIpv6.prefix(address(dz), 16 + dz.length())).build();
  }

  public static int priority(Dz dz) {
    return PRIORITY_BASE + dz.length();
  }

  /**
   * The guard of an event port: all of {@code ff0e::/16} to {@code eventPort}, below every content
   * flow, dropped (what a table miss does). A switch that caches flows by the fields its lookup
   * read (Open vSwitch's megaflows) then reads the port for every content packet, so a cache entry
   * made by an event to this port never takes one to another port: without it, an event nothing
   * matched may leave an entry that drops every event with its address prefix, whatever the port,
   * until the switch revalidates its cache after the next layout's flows arrived.
   */
  public static FlowEntry guard(int eventPort) {
    return FlowEntry.builder()
        .table(TABLE)
        .priority(SwitchLayout.PRIORITY_CONTENT_GUARD)
        .cookie(COOKIE)
        .match(match(Dz.EMPTY).toBuilder().udpDst(eventPort).build())
        .build();
  }

  /** The entry of one content flow. */
  public static FlowEntry entry(Dz dz, SortedSet<EventEgress> egresses) {
    return FlowEntry.builder()
        .table(TABLE)
        .priority(priority(dz))
        .cookie(COOKIE)
        .match(match(dz))
        .apply(actions(egresses))
        .build();
  }

  /** Plain outputs first (egresses sort so), then rewrite-and-output per subscriber. */
  static Action[] actions(Collection<EventEgress> egresses) {
    int n = 0;
    for (EventEgress e : egresses) {
      n += e.lastHop().isPresent() ? 4 : 1;
    }
    Action[] out = new Action[n];
    int i = 0;
    for (EventEgress e : egresses) {
      if (e.lastHop().isPresent()) {
        LastHop h = e.lastHop().get();
        out[i++] = new Action.SetIpv6Dst(h.host());
        out[i++] = new Action.SetEthDst(h.mac());
        out[i++] = new Action.SetUdpDst(h.udpPort());
      }
      out[i++] = Action.output(e.port());
    }
    return out;
  }

  /** Every flow of a table as entries. */
  public static List<FlowEntry> entries(Map<Dz, SortedSet<EventEgress>> flows) {
    List<FlowEntry> out = new ArrayList<>(flows.size());
    flows.forEach((dz, egresses) -> out.add(entry(dz, egresses)));
    return out;
  }

  /**
   * The flow-mods that carry out a switch's changes: net per dz (a dz changed twice sends one
   * message), additions and modifications (an ADD replaces the entry's actions) before deletions,
   * so a packet in flight meets a finer flow or its coarser replacement, never neither.
   */
  public static List<FlowMod> flowMods(List<TableChange> changes) {
    int n = changes.size();
    if (n == 1) { // the usual case: one change per switch and request
      TableChange c = changes.get(0);
      return List.of(c.isRemoval() ? deleteStrict(c.dz()) : FlowMod.add(entry(c.dz(), c.after())));
    }
    // A request's few changes per switch are netted by scanning; a long list (a withdrawn
    // advertisement's) by a map from each dz to its last change.
    Map<Dz, Integer> lastOf = n <= NET_BY_SCAN ? null : new HashMap<>();
    if (lastOf != null) {
      for (int i = 0; i < n; i++) {
        lastOf.put(changes.get(i).dz(), i);
      }
    }
    List<FlowMod> adds = new ArrayList<>(n);
    List<FlowMod> deletes = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      TableChange first = changes.get(i);
      Dz dz = first.dz();
      int last;
      if (lastOf != null) {
        Integer l = lastOf.remove(dz); // gone after the dz's first change
        if (l == null) {
          continue;
        }
        last = l;
      } else {
        if (changed(changes, 0, i, dz) >= 0) {
          continue; // not the dz's first change: netted there
        }
        last = Math.max(i, changed(changes, i + 1, n, dz));
      }
      SortedSet<EventEgress> after = changes.get(last).after();
      if (first.before().equals(after)) {
        continue;
      }
      if (after.isEmpty()) {
        deletes.add(deleteStrict(dz));
      } else {
        adds.add(FlowMod.add(entry(dz, after)));
      }
    }
    adds.addAll(deletes);
    return adds;
  }

  private static final int NET_BY_SCAN = 16;

  /** The last index in [from, to) of a change to {@code dz}, or -1. */
  private static int changed(List<TableChange> changes, int from, int to, Dz dz) {
    for (int i = to - 1; i >= from; i--) {
      if (changes.get(i).dz().equals(dz)) {
        return i;
      }
    }
    return -1;
  }

  /** OFPFC_DELETE_STRICT of a dz's flow: table, priority and match select it; no actions built. */
  static FlowMod deleteStrict(Dz dz) {
    return FlowMod.builder(FlowModCommand.DELETE_STRICT)
        .table(TABLE)
        .priority(priority(dz))
        .match(match(dz))
        .build();
  }
}
