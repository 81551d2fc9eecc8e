package org.netpubsub.controller.southbound;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.MaskedLong;
import org.netpubsub.network.openflow.Match;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMatchV3;
import org.projectfloodlight.openflow.protocol.OFOxmList;
import org.projectfloodlight.openflow.protocol.oxm.OFOxm;
import org.projectfloodlight.openflow.protocol.oxm.OFOxms;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.OFMetadata;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.U64;
import org.projectfloodlight.openflow.types.U8;

/**
 * The model's {@link Match} as an OpenFlow 1.3 OXM match and back. Fields are written in OXM order
 * (prerequisites before the fields that need them, as Open vSwitch requires) and read from the OXM
 * list itself, not through openflowj's getters, which hide fields whose prerequisites are missing.
 */
final class MatchTranslator {
  /** IANA's reserved protocol number, which openflowj refuses to encode. */
  private static final int RESERVED_IP_PROTO = 255;

  private MatchTranslator() {}

  static org.projectfloodlight.openflow.protocol.match.Match toOpenFlow(OFFactory f, Match m) {
    OFOxms oxms = f.oxms();
    List<OFOxm<?>> list = new ArrayList<>();
    if (m.inPort() != null) {
      list.add(oxms.inPort(port(m.inPort())));
    }
    if (m.metadata() != null) {
      MaskedLong md = m.metadata();
      OFMetadata value = OFMetadata.of(U64.of(md.value()));
      list.add(
          md.mask() == -1L
              ? oxms.metadata(value)
              : oxms.metadataMasked(value, OFMetadata.of(U64.of(md.mask()))));
    }
    if (m.ethType() != null) {
      list.add(oxms.ethType(EthType.of(m.ethType())));
    }
    if (m.ipProto() != null) {
      if (m.ipProto() == RESERVED_IP_PROTO) {
        throw new UnsupportedOpenFlowException("ip_proto 255 (reserved) cannot be encoded");
      }
      list.add(oxms.ipProto(IpProtocol.of(m.ipProto().shortValue())));
    }
    if (m.ipv6Src() != null) {
      MaskedIpv6 v = m.ipv6Src();
      list.add(
          v.isExact()
              ? oxms.ipv6Src(address(v.value()))
              : oxms.ipv6SrcMasked(address(v.value()), address(v.mask())));
    }
    if (m.ipv6Dst() != null) {
      MaskedIpv6 v = m.ipv6Dst();
      list.add(
          v.isExact()
              ? oxms.ipv6Dst(address(v.value()))
              : oxms.ipv6DstMasked(address(v.value()), address(v.mask())));
    }
    if (m.udpSrc() != null) {
      list.add(oxms.udpSrc(TransportPort.of(m.udpSrc())));
    }
    if (m.udpDst() != null) {
      list.add(oxms.udpDst(TransportPort.of(m.udpDst())));
    }
    if (m.icmpv6Type() != null) {
      list.add(oxms.icmpv6Type(U8.of(m.icmpv6Type().shortValue())));
    }
    return f.buildMatchV3().setOxmList(OFOxmList.ofList(list)).build();
  }

  static Match fromOpenFlow(org.projectfloodlight.openflow.protocol.match.Match match) {
    if (!(match instanceof OFMatchV3 v3)) {
      throw new UnsupportedOpenFlowException("not an OXM match: " + match);
    }
    Match.Builder b = Match.builder();
    for (OFOxm<?> oxm : v3.getOxmList()) {
      Object value = oxm.getValue();
      Object mask = oxm.isMasked() ? oxm.getMask() : null;
      switch (oxm.getMatchField().id) {
        case IN_PORT -> b.inPort(port((OFPort) value));
        case ETH_TYPE -> b.ethType(((EthType) value).getValue());
        case IP_PROTO -> b.ipProto(((IpProtocol) value).getIpProtocolNumber() & 0xff);
        case IPV6_SRC -> b.ipv6Src(masked((IPv6Address) value, (IPv6Address) mask));
        case IPV6_DST -> b.ipv6Dst(masked((IPv6Address) value, (IPv6Address) mask));
        case UDP_SRC -> b.udpSrc(((TransportPort) value).getPort());
        case UDP_DST -> b.udpDst(((TransportPort) value).getPort());
        case ICMPV6_TYPE -> b.icmpv6Type((int) ((U8) value).getValue());
        case METADATA ->
            b.metadata(
                new MaskedLong(
                    ((OFMetadata) value).getValue().getValue(),
                    mask == null ? -1L : ((OFMetadata) mask).getValue().getValue()));
        default ->
            throw new UnsupportedOpenFlowException(
                "match field " + oxm.getMatchField().getName() + " is not in the model");
      }
    }
    return b.build();
  }

  private static MaskedIpv6 masked(IPv6Address value, IPv6Address mask) {
    Ipv6Address v = address(value);
    return mask == null ? MaskedIpv6.exact(v) : MaskedIpv6.of(v, address(mask));
  }

  static OFPort port(long port) {
    return OFPort.ofInt((int) port);
  }

  static long port(OFPort port) {
    return port.getPortNumber() & 0xffffffffL;
  }

  static IPv6Address address(Ipv6Address a) {
    return IPv6Address.of(a.high(), a.low());
  }

  static Ipv6Address address(IPv6Address a) {
    byte[] b = a.getBytes();
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = high << 8 | (b[i] & 0xff);
      low = low << 8 | (b[8 + i] & 0xff);
    }
    return new Ipv6Address(high, low);
  }
}
