package org.netpubsub.edge.link;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/** The datagram key the tests' agents and brokers share, and sealing for hand-made datagrams. */
public final class TestKeys {
  /** A fixed key: every test datagram is authenticated as in production. */
  public static final DatagramAuth AUTH =
      DatagramAuth.of(
          List.of(
              HexFormat.of()
                  .parseHex("6e7073207465737420646174616772616d206b65792030303030303030303030")));

  private TestKeys() {}

  /** {@code d} with its tag under {@link #AUTH}, as an agent or broker would send it. */
  public static byte[] seal(byte[] d) {
    return seal(AUTH, d);
  }

  /** {@code d} with its tag under {@code auth}'s signing key. */
  public static byte[] seal(DatagramAuth auth, byte[] d) {
    byte[] out = Arrays.copyOf(d, d.length + DatagramAuth.TAG);
    auth.seal(out, 0, d.length);
    return out;
  }

  /** The datagram in {@code len} sealed bytes of {@code buf}; fails if its tag does not verify. */
  public static byte[] open(byte[] buf, int len) {
    int body = AUTH.open(buf, 0, len);
    if (body < 0) {
      throw new AssertionError("a datagram whose tag does not verify");
    }
    return Arrays.copyOf(buf, body);
  }
}
