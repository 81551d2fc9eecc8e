package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** The trace reader on outputs captured from ovs-appctl ofproto/trace (OVS 3.1). */
class OvsTraceParserTest {
  /** dpif/show: LOCAL 65534/1, ports 1..4 on datapath ports 2..5. */
  private static final Map<Long, Long> PORTS =
      Map.of(1L, OfPort.LOCAL, 2L, 1L, 3L, 2L, 4L, 3L, 5L, 4L);

  private static final PacketHeaders IN =
      PacketHeaders.udp6(Ipv6Address.parse("::1"), Ipv6Address.parse("ff0e:c000::5"), 1, 2);

  private static String trace(String datapathActions) {
    return "Flow: udp6,in_port=1,...\n\nbridge(\"npsd\")\n-----\n 0. priority 6\n    group:1\n\n"
        + "Final flow: unchanged\nMegaflow: recirc_id=0,eth,ipv6,in_port=1,nw_frag=no\n"
        + "Datapath actions: "
        + datapathActions
        + "\n";
  }

  @Test
  void rewritesApplyToTheOutputsThatFollowThem() {
    Forwarding f =
        OvsTraceParser.parse(
            trace(
                "set(ipv6(src=ff0e::2)),5,set(ipv6(dst=ff0e::1)),3,set(ipv6(dst=ff0e:c000::5)),4"),
            IN,
            PORTS);
    PacketHeaders src2 = IN.withIpv6Src(Ipv6Address.parse("ff0e::2"));
    assertThat(f)
        .isEqualTo(
            Forwarding.of(
                new Egress(4, src2),
                new Egress(2, src2.withIpv6Dst(Ipv6Address.parse("ff0e::1"))),
                new Egress(3, src2)));
  }

  @Test
  void readsControllerLocalDropAndClones() {
    Forwarding f =
        OvsTraceParser.parse(
            trace(
                "3,2,userspace(pid=0,controller(reason=1,dont_send=1,continuation=0,recirc_id=8,"
                    + "rule_cookie=0,controller_id=0,max_len=65535)),1,"
                    + "clone(set(udp(dst=9)),4),5"),
            IN,
            PORTS);
    assertThat(f)
        .isEqualTo(
            Forwarding.of(
                new Egress(2, IN),
                new Egress(1, IN),
                new Egress(OfPort.CONTROLLER, IN),
                new Egress(OfPort.LOCAL, IN),
                new Egress(3, IN.withUdpDst(9)),
                new Egress(4, IN)));
    assertThat(OvsTraceParser.parse(trace("drop"), IN, PORTS)).isEqualTo(Forwarding.DROP);
  }

  @Test
  void aFailedTranslationIsItsOwnResult() {
    String failed = trace("drop") + "Translation failed (Recursion too deep), packet is dropped.\n";
    assertThat(OvsTraceParser.parse(failed, IN, PORTS)).isEqualTo(Forwarding.FAILED);
  }

  @Test
  void maskedSetsChangeOnlyTheMaskedBits() {
    Forwarding f =
        OvsTraceParser.parse(trace("set(ipv6(dst=ff0e:1234::/ffff:ff00::)),3"), IN, PORTS);
    assertThat(f.egresses().get(0).headers().ipv6Dst())
        .isEqualTo(Ipv6Address.parse("ff0e:1200::5"));
  }

  @Test
  void anythingUnexpectedFailsLoudly() {
    assertThatThrownBy(() -> OvsTraceParser.parse(trace("hash(sym_l4(0)),recirc(0x1)"), IN, PORTS))
        .hasMessageContaining("unexpected datapath action");
    assertThatThrownBy(() -> OvsTraceParser.parse(trace("9"), IN, PORTS))
        .hasMessageContaining("unknown datapath port 9");
    assertThatThrownBy(() -> OvsTraceParser.parse(trace("set(ipv6(hlimit=3)),2"), IN, PORTS))
        .hasMessageContaining("unexpected field");
    assertThatThrownBy(() -> OvsTraceParser.parse("no actions here", IN, PORTS))
        .hasMessageContaining("no 'Datapath actions'");
  }
}
