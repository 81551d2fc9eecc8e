package org.netpubsub.network.nbi;

/**
 * A part of a packet-in a topic can constrain: a named header field ({@link HeaderField}) or a
 * window of raw bytes ({@link ByteWindow}, EMD §4.2).
 */
public sealed interface TopicField permits HeaderField, ByteWindow {

  /** The field's width: values and masks fit in this many low bits. */
  int bits();

  /** True if constraints may mask the field (addresses, byte windows); else they are exact. */
  boolean maskable();

  /** The packet's value of the field, or null if the packet does not have it. Never throws. */
  FieldValue read(PacketInView packet);

  /**
   * How many bits of real spread a constraint with this mask has in typical traffic (an IPv6 host
   * address far more than an EtherType): the classifier indexes a topic by its most selective
   * constraint.
   */
  int selectivity(FieldValue mask);

  /** The constraint in topic syntax ({@code udp_dst=7073}, {@code bytes@12/2=86dd}). */
  String format(FieldValue value, FieldValue mask);

  /** The mask of every bit of the field. */
  default FieldValue fullMask() {
    return FieldValue.lowBits(bits());
  }
}
