package org.netpubsub.network.invariants;

import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Datapath;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * One switch as the checker runs a packet through it: its index ({@link SwitchTables}) and its
 * ports in the topology, every one of them up (the checker judges the tables, not the link state).
 *
 * <p>With a region of destinations ({@link Cube}, the Camus check) the packet is the region's
 * representative, and its lookups cut the region; a lookup after the destination was rewritten is a
 * plain one (every address of the region has the same new one).
 */
record CheckedDatapath(
    SwitchTables tables,
    Set<Long> ports,
    Cube region,
    Ipv6Address representative,
    long lookupPort,
    Cuts.Consulted consulted)
    implements Datapath {

  /** A switch that runs single packets. */
  CheckedDatapath(SwitchTables tables, Set<Long> ports) {
    this(tables, ports, null, null, PortClasses.PHANTOM, null);
  }

  /**
   * A switch that runs the region's representative and cuts the region by its lookups; a packet
   * entering by {@link PortClasses#PHANTOM} is looked up as if it entered by {@code lookupPort}.
   * Every lookup and group read is recorded in {@code consulted} (what a kept cut's part depends
   * on, {@link Cuts}).
   */
  static CheckedDatapath cutting(
      SwitchTables tables, Set<Long> ports, Cube region, long lookupPort, Cuts.Consulted c) {
    return new CheckedDatapath(tables, ports, region, region.representative(), lookupPort, c);
  }

  @Override
  public FlowEntry lookup(int table, PacketHeaders headers, long inPort, long metadata) {
    long port = inPort == PortClasses.PHANTOM ? lookupPort : inPort;
    boolean whole = region != null && headers.isIpv6() && headers.ipv6Dst().equals(representative);
    if (consulted != null) {
      consulted.lookups.add(
          new Cuts.Lookup(table, metadata, port, whole ? null : headers.ipv6Dst()));
    }
    return whole
        ? tables.lookup(table, headers, port, metadata, region)
        : tables.lookup(table, headers, port, metadata);
  }

  @Override
  public GroupEntry group(long id) {
    if (consulted != null) {
      consulted.groups.add(id);
    }
    return tables.group(id);
  }

  @Override
  public boolean hasPort(long port) {
    return ports.contains(port);
  }

  @Override
  public boolean isLive(long port) {
    return ports.contains(port);
  }

  @Override
  public Iterable<Long> floodPorts() {
    return ports; // the topology's ports are sorted
  }
}
