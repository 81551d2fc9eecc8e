package org.netpubsub.network.invariants;

import java.util.Set;
import org.netpubsub.network.openflow.Datapath;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * One switch as the checker runs a packet through it: its index ({@link SwitchTables}) and its
 * ports in the topology, every one of them up (the checker judges the tables, not the link state).
 */
record CheckedDatapath(SwitchTables tables, Set<Long> ports) implements Datapath {
  @Override
  public FlowEntry lookup(int table, PacketHeaders headers, long inPort, long metadata) {
    return tables.lookup(table, headers, inPort, metadata);
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
    return ports; // the topology's ports are sorted
  }
}
