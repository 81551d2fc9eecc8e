package org.netpubsub.network.openflow;

/** ofp_flow_mod_flags of OpenFlow 1.3, with the names ovs-ofctl uses ({@code send_flow_rem}). */
public enum FlowFlag {
  SEND_FLOW_REM(1),
  CHECK_OVERLAP(2),
  RESET_COUNTS(4),
  NO_PKT_COUNTS(8),
  NO_BYT_COUNTS(16);

  private final int bit;

  FlowFlag(int bit) {
    this.bit = bit;
  }

  /** The bit in the flags field. */
  public int bit() {
    return bit;
  }

  /** The ovs-ofctl keyword: {@code send_flow_rem}, {@code no_packet_counts}, ... */
  public String ovsName() {
    return switch (this) {
      case NO_PKT_COUNTS -> "no_packet_counts";
      case NO_BYT_COUNTS -> "no_byte_counts";
      default -> name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
