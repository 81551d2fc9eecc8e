package org.netpubsub.network.layout;

import java.util.List;
import java.util.Optional;
import org.netpubsub.network.layout.FlowSpace.Band;
import org.netpubsub.network.openflow.FlowEntry;

/**
 * The one declaration of a switch's layout: every {@link Owner}'s tables, priority band, cookies
 * and group ids. The apps' table, priority and cookie constants are these ({@code
 * UnicastRouting.COOKIE} is {@link #BASE_COOKIE} …), and the controller's flow service refuses a
 * mod outside its owner's space. Table 0 is shared and split by priority: discovery above
 * everything, then the publishing ingress drops, then multicast segments, the Camus entry,
 * PLEROMA's content flows (one priority per dz length) and unicast at the bottom; Camus's field and
 * leaf tables follow table 0. Northbound apps may write anywhere with cookies not tagged "NPS"
 * (their flows are checked by the bus's invariant checker instead).
 */
public final class SwitchLayout {
  /** The tag in the high bits of every cookie netpubsub's own apps write ("NPS"). */
  public static final long NPS_TAG = 0x4e50_5300_0000_0000L;

  /** The cookie bits that name the app: all of them. */
  private static final long EXACT = -1L;

  /** The table every app but Camus's field tables lives in. */
  public static final int TABLE_0 = 0;

  /** The highest table id a flow may name (OFPTT_MAX). */
  public static final int LAST_TABLE = 0xfe;

  // ---- discovery and base forwarding (app 1) ----

  /** "NPS" and app number 1 (base forwarding, and the discovery entries it emits). */
  public static final long BASE_COOKIE = NPS_TAG | 1;

  /** LLDP (eth_type 0x88cc) to the controller: above everything, so discovery always works. */
  public static final int PRIORITY_LLDP = 60_000;

  /** ICMPv6 types 135 and 136 to the controller: above unicast, so ND is never routed. */
  public static final int PRIORITY_ND = 50_000;

  /** ipv6_dst=host/128: below every content-based app. */
  public static final int PRIORITY_UNICAST = 10_000;

  /** The table-miss entry of reactive forwarding: below everything. */
  public static final int PRIORITY_MISS = 0;

  // ---- PLEROMA content flows (app 2) ----

  /** "NPS" and app number 2 (PLEROMA content flows). */
  public static final long CONTENT_COOKIE = NPS_TAG | 2;

  /** Above unicast forwarding, below ND and LLDP; plus dz length (0..{@link #MAX_DZ_LENGTH}). */
  public static final int CONTENT_PRIORITY_BASE = 20_000;

  /**
   * During an online layout switch, the old layout's event port in all of {@code ff0e::/16}, below
   * every content flow: drops what they do not take, so that the switch's flow caches keep the
   * event port in every content packet's entry (docs/pubsub.md, "Switching the layout").
   */
  public static final int PRIORITY_CONTENT_GUARD = CONTENT_PRIORITY_BASE - 1;

  /** The longest dz a content flow matches (128 bits less the ff0e::/16 prefix). */
  public static final int MAX_DZ_LENGTH = 112;

  // ---- Camus pipeline (app 3) ----

  /** "NPS" and app number 3 (Camus pipelines, in the controller and in {@code nps compile}). */
  public static final long CAMUS_COOKIE = NPS_TAG | 3;

  /** The Camus table-0 entry (and its up-port twin one above). */
  public static final int CAMUS_ENTRY_PRIORITY = 30_000;

  /** Camus's first field table; its leaf table follows the field tables. */
  public static final int CAMUS_FIRST_TABLE = 1;

  /** Camus group ids are the compiler's plus this. */
  public static final long CAMUS_GROUP_BASE = 0x10000;

  // ---- multicast trees (app 5) ----

  /** "NPS" and app number 5 (multicast trees). */
  public static final long MULTICAST_COOKIE = NPS_TAG | 5;

  /** Exact segment address, entry SID or local SID: above unicast and PLEROMA content. */
  public static final int PRIORITY_SEGMENT = 32_000;

  /** A switch's segment prefix: one hop towards it. */
  public static final int PRIORITY_SEGMENT_ROUTE = 31_000;

  /** Segment {@code i} of a switch is its group {@code MULTICAST_GROUP_BASE + i}. */
  public static final long MULTICAST_GROUP_BASE = 0x5e00_0000L;

  // ---- publishing ingress enforcement (app 6) ----

  /** "NPS" and app number 6 (the drops of content addresses outside a host port's region). */
  public static final long INGRESS_COOKIE = NPS_TAG | 6;

  /**
   * in_port and a content-address prefix outside what the port's hosts advertised: dropped before
   * any content flow, segment or Camus entry sees it; below ND and LLDP. With Camus, the allowed
   * boxes of a port one above it (to the Camus pipeline), its drop of ff0e::/16 at it.
   */
  public static final int PRIORITY_INGRESS_DROP = 40_000;

  // ---- northbound apps ----

  /** The priority the bundled northbound apps (learning switch, shortest path) install at. */
  public static final int NORTHBOUND_PRIORITY = 10;

  private static final int MAX_PRIORITY = 0xffff;

  private static final List<FlowSpace> SPACES =
      List.of(
          new FlowSpace(
              Owner.DISCOVERY, BASE_COOKIE, EXACT, List.of(band0(PRIORITY_ND, MAX_PRIORITY)), 1, 0),
          new FlowSpace(
              Owner.BASE_FORWARDING,
              BASE_COOKIE,
              EXACT,
              List.of(band0(PRIORITY_MISS, PRIORITY_CONTENT_GUARD - 1)),
              1,
              0),
          new FlowSpace(
              Owner.PUBSUB_CONTENT,
              CONTENT_COOKIE,
              EXACT,
              List.of(band0(PRIORITY_CONTENT_GUARD, CONTENT_PRIORITY_BASE + MAX_DZ_LENGTH)),
              1,
              0),
          new FlowSpace(
              Owner.CAMUS_PIPELINE,
              CAMUS_COOKIE,
              EXACT,
              List.of(
                  band0(CAMUS_ENTRY_PRIORITY, CAMUS_ENTRY_PRIORITY + 1),
                  new Band(CAMUS_FIRST_TABLE, LAST_TABLE, 0, MAX_PRIORITY)),
              CAMUS_GROUP_BASE,
              MULTICAST_GROUP_BASE - 1),
          new FlowSpace(
              Owner.MULTICAST_GROUPS,
              MULTICAST_COOKIE,
              EXACT,
              List.of(band0(PRIORITY_SEGMENT_ROUTE, PRIORITY_SEGMENT)),
              MULTICAST_GROUP_BASE,
              MULTICAST_GROUP_BASE + 0xff_ffffL),
          new FlowSpace(
              Owner.INGRESS,
              INGRESS_COOKIE,
              EXACT,
              List.of(band0(PRIORITY_INGRESS_DROP, PRIORITY_INGRESS_DROP + 1)),
              1,
              0),
          new FlowSpace(
              Owner.NORTHBOUND_APPS,
              0,
              0xffff_ffff_0000_0000L, // cookies with no tag in the high half
              List.of(new Band(TABLE_0, LAST_TABLE, 0, MAX_PRIORITY)),
              1,
              CAMUS_GROUP_BASE - 1));

  private SwitchLayout() {}

  private static Band band0(int min, int max) {
    return new Band(TABLE_0, TABLE_0, min, max);
  }

  /** Every owner's space, in {@link Owner} order. */
  public static List<FlowSpace> spaces() {
    return SPACES;
  }

  public static FlowSpace space(Owner owner) {
    return SPACES.get(owner.ordinal());
  }

  /** The owner whose space holds this flow, if any. */
  public static Optional<Owner> ownerOf(FlowEntry f) {
    for (FlowSpace s : SPACES) {
      if (s.contains(f)) {
        return Optional.of(s.owner());
      }
    }
    return Optional.empty();
  }
}
