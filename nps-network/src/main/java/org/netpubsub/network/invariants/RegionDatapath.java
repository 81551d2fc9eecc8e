package org.netpubsub.network.invariants;

import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Datapath;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * One switch as the checker runs a region of destinations through it ({@link Cube}): the lookups of
 * the region's representative cut the region; a lookup after the destination was rewritten is a
 * plain one (every address of the region has the same new one).
 */
final class RegionDatapath implements Datapath {
  private final SwitchTables tables;
  private final Set<Long> ports;
  private final Cube cube;
  private final Ipv6Address representative;

  RegionDatapath(SwitchTables tables, Set<Long> ports, Cube cube) {
    this.tables = tables;
    this.ports = ports;
    this.cube = cube;
    this.representative = cube.representative();
  }

  @Override
  public FlowEntry lookup(int table, PacketHeaders headers, long inPort, long metadata) {
    return headers.isIpv6() && headers.ipv6Dst().equals(representative)
        ? tables.lookup(table, headers, inPort, metadata, cube)
        : tables.lookup(table, headers, inPort, metadata);
  }

  @Override
  public GroupEntry group(long id) {
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
    return ports;
  }
}
