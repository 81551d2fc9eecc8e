package org.netpubsub.network.openflow;

/** ofp_flow_mod_command of OpenFlow 1.3. */
public enum FlowModCommand {
  ADD(0),
  MODIFY(1),
  MODIFY_STRICT(2),
  DELETE(3),
  DELETE_STRICT(4);

  private final int number;

  FlowModCommand(int number) {
    this.number = number;
  }

  public int number() {
    return number;
  }

  public boolean isStrict() {
    return this == MODIFY_STRICT || this == DELETE_STRICT;
  }

  public boolean isDelete() {
    return this == DELETE || this == DELETE_STRICT;
  }

  public boolean isModify() {
    return this == MODIFY || this == MODIFY_STRICT;
  }
}
