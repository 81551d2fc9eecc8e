package org.netpubsub.network.openflow;

/**
 * A flow-removed message: sent for entries carrying {@link FlowFlag#SEND_FLOW_REM} when a delete, a
 * timeout or the deletion of a group they use removes them (ofp_flow_removed_reason).
 */
public record FlowRemoved(FlowEntry entry, Reason reason) {
  /** ofp_flow_removed_reason of OpenFlow 1.3. */
  public enum Reason {
    IDLE_TIMEOUT(0),
    HARD_TIMEOUT(1),
    DELETE(2),
    GROUP_DELETE(3);

    private final int number;

    Reason(int number) {
      this.number = number;
    }

    public int number() {
      return number;
    }
  }
}
