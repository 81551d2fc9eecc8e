package org.netpubsub.network.openflow;

import java.util.Set;

/** The fixed properties of a simulated switch (see {@link SimulatedSwitch.Builder}). */
record SwitchConfig(
    Set<Long> ports,
    boolean localPort,
    int numTables,
    int maxFlowsPerTable,
    int maxGroups,
    TableMissBehavior missBehavior) {

  /** True if {@code port} is a port of this switch that packets can leave by. */
  boolean hasPort(long port) {
    return ports.contains(port) || (localPort && port == OfPort.LOCAL);
  }
}
