package org.netpubsub.network.openflow;

/** ofp_group_mod_command of OpenFlow 1.3. */
public enum GroupModCommand {
  ADD(0),
  MODIFY(1),
  DELETE(2);

  private final int number;

  GroupModCommand(int number) {
    this.number = number;
  }

  public int number() {
    return number;
  }
}
