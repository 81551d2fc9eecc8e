package org.netpubsub.controller.sim;

/**
 * How a {@link SimulatedOpenFlowSwitch} misbehaves, for tests of the controller's isolation. A mode
 * set before connecting shapes the start of the connection; one set later takes effect at once.
 */
public enum FaultMode {
  /** Behaves like Open vSwitch. */
  NONE,
  /** Sends nothing and answers nothing (no HELLO either, when set before connecting). */
  SILENT,
  /** Answers everything except barrier requests. */
  NO_BARRIER_REPLIES,
  /** Sends bytes that are no OpenFlow frame instead of its HELLO. */
  GARBAGE_HELLO,
  /** Says HELLO in OpenFlow 1.0 (no version bitmap). */
  OPENFLOW10_HELLO
}
