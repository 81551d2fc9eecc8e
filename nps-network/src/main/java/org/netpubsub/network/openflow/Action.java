package org.netpubsub.network.openflow;

import org.netpubsub.content.address.Ipv6Address;

/**
 * An OpenFlow 1.3 action: output to a port, hand to a group, or rewrite a header field (set_field).
 * Reserved ports (IN_PORT, CONTROLLER, ALL, ...) are plain data: {@link OfPort}.
 */
public sealed interface Action {

  /** The key under which an action set holds this action: one action per key (OF1.3 §5.10). */
  String actionSetKey();

  static Output output(long port) {
    return new Output(port);
  }

  static Group group(long groupId) {
    return new Group(groupId);
  }

  /** Output to a port; {@code maxLen} only matters for CONTROLLER (bytes sent to it). */
  record Output(long port, int maxLen) implements Action {
    /** OFPCML_NO_BUFFER: send the whole packet to the controller. */
    public static final int NO_BUFFER = 0xffff;

    public Output {
      if (port < 0 || port > OfPort.ANY) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      if (maxLen < 0 || maxLen > 0xffff) {
        throw new IllegalArgumentException("max_len out of range: " + maxLen);
      }
      // max_len means nothing for other ports, and switches do not keep it.
      if (port != OfPort.CONTROLLER) {
        maxLen = NO_BUFFER;
      }
    }

    public Output(long port) {
      this(port, NO_BUFFER);
    }

    @Override
    public String actionSetKey() {
      return "output";
    }
  }

  /** Process the packet through a group. */
  record Group(long groupId) implements Action {
    public Group {
      if (groupId < 0 || groupId > OfPort.ANY) {
        throw new IllegalArgumentException("group id out of range: " + groupId);
      }
    }

    @Override
    public String actionSetKey() {
      return "group";
    }
  }

  /** A set_field action: rewrites one header field if the packet has it. */
  sealed interface SetField extends Action {
    /** The OXM field name as ovs-ofctl writes it ({@code ipv6_dst}). */
    String field();

    /** The headers rewritten; unchanged if the packet lacks the field (as OVS does). */
    PacketHeaders applyTo(PacketHeaders h);

    /**
     * True if a flow with this match may carry the action: OpenFlow requires the field's
     * prerequisites in the match (else OFPBAC_MATCH_INCONSISTENT).
     */
    boolean consistentWith(Match m);

    @Override
    default String actionSetKey() {
      return "set_field:" + field();
    }
  }

  /** set_field:ADDR-&gt;ipv6_src. */
  record SetIpv6Src(Ipv6Address value) implements SetField {
    @Override
    public String field() {
      return "ipv6_src";
    }

    @Override
    public PacketHeaders applyTo(PacketHeaders h) {
      return h.isIpv6() ? h.withIpv6Src(value) : h;
    }

    @Override
    public boolean consistentWith(Match m) {
      return m.isEthType(PacketHeaders.ETH_TYPE_IPV6);
    }
  }

  /** set_field:ADDR-&gt;ipv6_dst. */
  record SetIpv6Dst(Ipv6Address value) implements SetField {
    @Override
    public String field() {
      return "ipv6_dst";
    }

    @Override
    public PacketHeaders applyTo(PacketHeaders h) {
      return h.isIpv6() ? h.withIpv6Dst(value) : h;
    }

    @Override
    public boolean consistentWith(Match m) {
      return m.isEthType(PacketHeaders.ETH_TYPE_IPV6);
    }
  }

  /** set_field:PORT-&gt;udp_src. */
  record SetUdpSrc(int value) implements SetField {
    public SetUdpSrc {
      checkUdpPort(value);
    }

    @Override
    public String field() {
      return "udp_src";
    }

    @Override
    public PacketHeaders applyTo(PacketHeaders h) {
      return h.isUdp() ? h.withUdpSrc(value) : h;
    }

    @Override
    public boolean consistentWith(Match m) {
      return matchesUdp(m);
    }
  }

  /** set_field:PORT-&gt;udp_dst. */
  record SetUdpDst(int value) implements SetField {
    public SetUdpDst {
      checkUdpPort(value);
    }

    @Override
    public String field() {
      return "udp_dst";
    }

    @Override
    public PacketHeaders applyTo(PacketHeaders h) {
      return h.isUdp() ? h.withUdpDst(value) : h;
    }

    @Override
    public boolean consistentWith(Match m) {
      return matchesUdp(m);
    }
  }

  /**
   * set_field:MAC-&gt;eth_dst, the 48-bit address in the low bits. The model does not track
   * Ethernet addresses ({@link PacketHeaders} starts at the EtherType), so on the simulated switch
   * this rewrite changes nothing; Open vSwitch applies it.
   */
  record SetEthDst(long mac) implements SetField {
    public SetEthDst {
      if ((mac & ~0xffff_ffff_ffffL) != 0) {
        throw new IllegalArgumentException("a MAC address has 48 bits: " + Long.toHexString(mac));
      }
    }

    @Override
    public String field() {
      return "eth_dst";
    }

    @Override
    public PacketHeaders applyTo(PacketHeaders h) {
      return h;
    }

    @Override
    public boolean consistentWith(Match m) {
      return true; // eth_dst has no prerequisite
    }

    /** {@code 0a:1b:2c:3d:4e:5f}. */
    public String text() {
      StringBuilder b = new StringBuilder(17);
      for (int shift = 40; shift >= 0; shift -= 8) {
        if (shift < 40) {
          b.append(':');
        }
        b.append(String.format("%02x", (mac >>> shift) & 0xff));
      }
      return b.toString();
    }
  }

  private static void checkUdpPort(int value) {
    if (value < 0 || value > 0xffff) {
      throw new IllegalArgumentException("udp port out of range: " + value);
    }
  }

  /** Whether a match selects only well-formed UDP packets, so a UDP port rewrite applies. */
  private static boolean matchesUdp(Match m) {
    return m.prerequisiteError().isEmpty()
        && m.ipProto() != null
        && m.ipProto() == PacketHeaders.IP_PROTO_UDP;
  }
}
