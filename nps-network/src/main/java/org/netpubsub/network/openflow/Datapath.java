package org.netpubsub.network.openflow;

/**
 * What one packet's trip through a {@link Pipeline} reads of a switch: its tables, groups and
 * ports. The simulated switch and the invariant checker each give their own (their indexes differ;
 * the interpretation does not).
 */
public interface Datapath {
  /**
   * The entry a packet hits in a table: the highest matching priority, and among equal ones the
   * datapath's choice (the oldest, unless told otherwise); null on a miss.
   */
  FlowEntry lookup(int table, PacketHeaders headers, long inPort, long metadata);

  /** The group with this id, or null (a bucket may name a deleted group). */
  GroupEntry group(long id);

  /** True if an output to {@code port} sends a copy (the port exists). */
  boolean hasPort(long port);

  /** True if a bucket watching {@code port} is alive (the port exists and is up). */
  boolean isLive(long port);

  /** The ports ALL and FLOOD send to (the ingress port is left out by the pipeline), ascending. */
  Iterable<Long> floodPorts();
}
