package org.netpubsub.network.discovery;

import java.util.OptionalLong;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.MacAddress;

/**
 * The LLDP frame netpubsub's link discovery sends out of every switch port (IEEE 802.1AB): Ethernet
 * to 01:80:c2:00:00:0e, EtherType 0x88cc; chassis ID TLV (subtype 7, locally assigned: the 8-byte
 * datapath id), port ID TLV (subtype 7: the 4-byte OpenFlow port number), TTL TLV, an
 * organisation-specific TLV (OUI 4e:50:53 "NPS", subtype 1: the 8-byte nonce of the controller that
 * sent it, so frames of other controllers and devices are ignored), End TLV; zero-padded to the
 * 60-byte Ethernet minimum.
 */
public record LldpFrame(
    MacAddress source, long dpid, long port, int ttlSeconds, OptionalLong nonce) {
  /** The nearest-bridge group address: no bridge forwards it. */
  public static final MacAddress DESTINATION = new MacAddress(0x0180_c200_000eL);

  public static final int ETH_TYPE = PacketHeaders.ETH_TYPE_LLDP;

  /** "NPS", a locally administered OUI (bit 1 of the first octet set). */
  static final int OUI = 0x4e5053;

  static final int SUBTYPE_NONCE = 1;
  static final int SUBTYPE_LOCAL = 7;
  static final int MIN_FRAME = 60;

  private static final int TLV_END = 0;
  private static final int TLV_CHASSIS = 1;
  private static final int TLV_PORT = 2;
  private static final int TLV_TTL = 3;
  private static final int TLV_ORG = 127;

  public LldpFrame {
    if (source == null || nonce == null) {
      throw new IllegalArgumentException("source and nonce (maybe empty) are required");
    }
    if (port < 1 || port > 0xffffff00L) {
      throw new IllegalArgumentException("not a physical port number: " + port);
    }
    if (ttlSeconds < 0 || ttlSeconds > 0xffff) {
      throw new IllegalArgumentException("TTL out of range: " + ttlSeconds);
    }
  }

  /** The headers of the frame as the flow tables see it. */
  public static PacketHeaders headers() {
    return PacketHeaders.builder().ethType(ETH_TYPE).build();
  }

  /** The frame's bytes. */
  public byte[] encode() {
    int length = 14 + 11 + 7 + 4 + (nonce.isPresent() ? 14 : 0) + 2;
    byte[] b = new byte[Math.max(length, MIN_FRAME)];
    DESTINATION.write(b, 0);
    source.write(b, 6);
    put(b, 12, ETH_TYPE, 2);
    int at = 14;
    at = tlvHeader(b, at, TLV_CHASSIS, 9);
    b[at++] = SUBTYPE_LOCAL;
    put(b, at, dpid, 8);
    at += 8;
    at = tlvHeader(b, at, TLV_PORT, 5);
    b[at++] = SUBTYPE_LOCAL;
    put(b, at, port, 4);
    at += 4;
    at = tlvHeader(b, at, TLV_TTL, 2);
    put(b, at, ttlSeconds, 2);
    at += 2;
    if (nonce.isPresent()) {
      at = tlvHeader(b, at, TLV_ORG, 12);
      put(b, at, OUI, 3);
      b[at + 3] = SUBTYPE_NONCE;
      put(b, at + 4, nonce.getAsLong(), 8);
      at += 12;
    }
    tlvHeader(b, at, TLV_END, 0);
    return b;
  }

  private static int tlvHeader(byte[] b, int at, int type, int length) {
    put(b, at, type << 9 | length, 2);
    return at + 2;
  }

  private static void put(byte[] b, int at, long v, int bytes) {
    for (int i = 0; i < bytes; i++) {
      b[at + i] = (byte) (v >>> (8 * (bytes - 1 - i)));
    }
  }

  private static long get(byte[] b, int at, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = v << 8 | (b[at + i] & 0xff);
    }
    return v;
  }

  /** Decodes a frame as punted to the controller; never throws, whatever the bytes. */
  public static DecodeResult<LldpFrame> decode(byte[] b) {
    if (b == null || b.length < 14) {
      return DecodeResult.malformed("shorter than an Ethernet header");
    }
    if (!MacAddress.read(b, 0).equals(DESTINATION)) {
      return DecodeResult.malformed("not sent to " + DESTINATION);
    }
    if (get(b, 12, 2) != ETH_TYPE) {
      return DecodeResult.malformed("EtherType is not LLDP");
    }
    long[] fields = new long[3]; // dpid, port, ttl: the three mandatory TLVs in this order
    Long nonce = null;
    int at = 14;
    for (int index = 0; ; index++) {
      if (at + 2 > b.length) {
        return DecodeResult.malformed("no End TLV");
      }
      int header = (int) get(b, at, 2);
      int type = header >>> 9;
      int length = header & 0x1ff;
      int value = at + 2;
      if (value + length > b.length) {
        return DecodeResult.malformed("TLV " + type + " runs past the frame");
      }
      at = value + length;
      if (index < 3) {
        String error = mandatory(b, index, type, value, length, fields);
        if (error != null) {
          return DecodeResult.malformed(error);
        }
        continue;
      }
      switch (type) {
        case TLV_END -> {
          if (length != 0) {
            return DecodeResult.malformed("End TLV with a value");
          }
          return DecodeResult.ok(
              new LldpFrame(
                  MacAddress.read(b, 6),
                  fields[0],
                  fields[1],
                  (int) fields[2],
                  nonce == null ? OptionalLong.empty() : OptionalLong.of(nonce)));
        }
        case TLV_CHASSIS, TLV_PORT, TLV_TTL -> {
          return DecodeResult.malformed("repeated mandatory TLV " + type);
        }
        case TLV_ORG -> {
          if (length < 4) {
            return DecodeResult.malformed("organisation TLV shorter than OUI and subtype");
          }
          if (get(b, value, 3) == OUI && b[value + 3] == SUBTYPE_NONCE) {
            if (length != 12 || nonce != null) {
              return DecodeResult.malformed("bad or repeated nonce TLV");
            }
            nonce = get(b, value + 4, 8);
          }
        }
        default -> {} // other optional TLVs: skipped
      }
    }
  }

  /** Checks mandatory TLV {@code index} (chassis, port, TTL) and stores its value; or an error. */
  private static String mandatory(
      byte[] b, int index, int type, int value, int length, long[] out) {
    int expectedType = index + 1;
    if (type != expectedType) {
      return "TLV " + type + " where the mandatory TLV " + expectedType + " belongs";
    }
    switch (index) {
      case 0 -> {
        if (length != 9 || b[value] != SUBTYPE_LOCAL) {
          return "chassis ID is not a datapath id";
        }
        out[0] = get(b, value + 1, 8);
      }
      case 1 -> {
        if (length != 5 || b[value] != SUBTYPE_LOCAL) {
          return "port ID is not an OpenFlow port number";
        }
        out[1] = get(b, value + 1, 4);
        if (out[1] < 1 || out[1] > 0xffffff00L) {
          return "port ID is not a physical port number";
        }
      }
      default -> {
        if (length != 2) {
          return "TTL TLV of length " + length;
        }
        out[2] = get(b, value, 2);
      }
    }
    return null;
  }
}
