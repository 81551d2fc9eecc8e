package org.netpubsub.network.nbi;

/**
 * {@code length} bytes at {@code offset} from the start of the packet: EMD's protocol-independent
 * field (§4.2, after POF's offset/length), for protocols OpenFlow has no match field for.
 */
public record ByteWindow(int offset, int length) implements TopicField {
  /** Packet-in data is at most 65535 bytes. */
  public static final int MAX_OFFSET = 0xffff;

  /** A window's value must fit a {@link FieldValue}. */
  public static final int MAX_LENGTH = 16;

  public ByteWindow {
    if (offset < 0 || offset > MAX_OFFSET) {
      throw new IllegalArgumentException("offset must be in [0, " + MAX_OFFSET + "]: " + offset);
    }
    if (length < 1 || length > MAX_LENGTH) {
      throw new IllegalArgumentException("length must be in [1, " + MAX_LENGTH + "]: " + length);
    }
  }

  @Override
  public int bits() {
    return 8 * length;
  }

  @Override
  public boolean maskable() {
    return true;
  }

  @Override
  public FieldValue read(PacketInView packet) {
    return packet.bytes(offset, length);
  }

  @Override
  public int selectivity(FieldValue mask) {
    return mask.bitCount();
  }

  /** {@code bytes@OFFSET/LENGTH=VALUE}, with {@code &MASK} before {@code =} unless all ones. */
  @Override
  public String format(FieldValue value, FieldValue mask) {
    String m = mask.equals(fullMask()) ? "" : "&" + mask.toHex(length);
    return "bytes@" + offset + "/" + length + m + "=" + value.toHex(length);
  }

  @Override
  public String toString() {
    return "bytes@" + offset + "/" + length;
  }
}
