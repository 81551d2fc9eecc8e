package org.netpubsub.network.openflow;

import java.util.Locale;

/** ofp_group_type of OpenFlow 1.3; {@link #ovsName} is ovs-ofctl's keyword. */
public enum GroupType {
  /** Every bucket, each on its own copy of the packet (multicast, replication). */
  ALL(0),
  /** One live bucket, chosen by the switch (here: a hash of the packet's headers). */
  SELECT(1),
  /** The single bucket. */
  INDIRECT(2),
  /** The first live bucket (fast failover). */
  FF(3);

  private final int number;

  GroupType(int number) {
    this.number = number;
  }

  public int number() {
    return number;
  }

  public String ovsName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static GroupType fromOvsName(String name) {
    for (GroupType t : values()) {
      if (t.ovsName().equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown group type: '" + name + "'");
  }
}
