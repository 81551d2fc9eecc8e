package org.netpubsub.controller.southbound;

import java.util.OptionalLong;

/**
 * A frame whose header names another OpenFlow version than 1.3: its version, type and xid, and for
 * a HELLO the version bitmap it carried, if any (bit {@code v} set = version {@code v} supported).
 */
public record ForeignVersionFrame(int version, int type, long xid, OptionalLong versionBitmap) {
  /** OFPT_HELLO. */
  public static final int HELLO = 0;

  public boolean isHello() {
    return type == HELLO;
  }
}
