package org.netpubsub.network.nbi;

/** What EMD's checker does with an app's packet-out (Algorithm 2, lines 4–17). */
public enum PacketOutVerdict {
  /** Hand it to the core, which sends it. */
  PASS,
  /**
   * Drop it: the packet-in went to several apps and another app's packet-out already sent the
   * packet from this switch or towards it (line 8).
   */
  DROP_DUPLICATE,
  /**
   * Do not send it: its output port leads to nothing alive; tell the apps the topology (line 14).
   */
  DEAD_PORT
}
