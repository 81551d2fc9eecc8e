package org.netpubsub.network.openflow;

/**
 * What the simulated switch does when a packet matches no entry of a table (and no table-miss entry
 * exists): the actions already applied stay applied either way.
 */
public enum TableMissBehavior {
  /**
   * Open vSwitch 3.1 (checked with ofproto/trace): the packet stops, but the action set written by
   * earlier tables is still executed. The default.
   */
  EXECUTE_ACTION_SET,
  /** The letter of OpenFlow 1.3 §5.4: the packet is dropped, the action set is discarded. */
  DROP
}
