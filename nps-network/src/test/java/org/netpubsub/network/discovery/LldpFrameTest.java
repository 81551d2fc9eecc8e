package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.MacAddress;

/** The LLDP frame's layout and the decoder's verdicts on frames that are not ours. */
class LldpFrameTest {
  private static final MacAddress SRC = MacAddress.parse("02:4e:50:53:00:00");
  private static final LldpFrame F =
      new LldpFrame(SRC, 0x0000_0000_0000_0abcL, 7, 15, OptionalLong.of(0x1122334455667788L));

  private static DecodeResult<LldpFrame> decodeHex(String hex) {
    return LldpFrame.decode(HexFormat.of().parseHex(hex.replace(" ", "")));
  }

  private static String reason(DecodeResult<LldpFrame> r) {
    assertThat(r).isInstanceOf(DecodeResult.Malformed.class);
    return ((DecodeResult.Malformed<LldpFrame>) r).reason();
  }

  @Test
  void layoutIsIeee8021ab() {
    String hex = HexFormat.of().formatHex(F.encode());
    assertThat(hex)
        .isEqualTo(
            "0180c200000e"
                + "024e50530000"
                + "88cc" // Ethernet
                + "0209"
                + "07"
                + "0000000000000abc" // chassis ID, locally assigned
                + "0405"
                + "07"
                + "00000007" // port ID, locally assigned
                + "0602"
                + "000f" // TTL
                + "fe0c"
                + "4e5053"
                + "01"
                + "1122334455667788" // organisation TLV: nonce
                + "0000" // End
                + "0000000000000000"); // padding to 60 bytes
    assertThat(F.encode()).hasSize(60);
  }

  @Test
  void roundTrips() {
    assertThat(LldpFrame.decode(F.encode())).isEqualTo(DecodeResult.ok(F));
    LldpFrame foreign = new LldpFrame(SRC, -1L, 0xffffff00L, 0, OptionalLong.empty());
    assertThat(LldpFrame.decode(foreign.encode()).toOptional()).contains(foreign);
  }

  @Test
  void otherOrganisationTlvsAndOptionalTlvsAreSkipped() {
    // chassis, port, TTL, system name "sw" (type 5), ONF org TLV, our nonce, End.
    String hex =
        "0180c200000e 024e50530000 88cc 0209 07 0000000000000001 0405 07 00000002 0602 0078"
            + " 0a02 7377 fe05 a42305 01 aa fe0c 4e5053 01 0000000000000009 0000";
    LldpFrame f = decodeHex(hex).toOptional().orElseThrow();
    assertThat(f.dpid()).isEqualTo(1);
    assertThat(f.port()).isEqualTo(2);
    assertThat(f.ttlSeconds()).isEqualTo(120);
    assertThat(f.nonce()).hasValue(9);
  }

  @Test
  void framesOfOtherDevicesAreMalformedWithAReason() {
    String head = "0180c200000e 024e50530000 88cc ";
    String port = "0405 07 00000002 ";
    String ttl = "0602 0078 ";
    // A real switch names its chassis by MAC (subtype 4).
    assertThat(reason(decodeHex(head + "0207 04 0a0b0c0d0e0f " + port + ttl + "0000")))
        .contains("chassis ID");
    assertThat(reason(decodeHex(head.replace("0e ", "03 ") + "0000"))).contains("not sent to");
    assertThat(reason(decodeHex(head.replace("88cc", "86dd") + "0000"))).contains("EtherType");
    assertThat(reason(decodeHex(head + "0209 07 0000000000000001 " + port + ttl)))
        .contains("End TLV");
    assertThat(reason(decodeHex(head + "0209 07 00000000"))).contains("runs past");
    assertThat(reason(decodeHex(head + port + ttl + "0000"))).contains("mandatory");
    assertThat(reason(decodeHex(head + "0209 07 0000000000000001 0405 07 00000000" + ttl + "0000")))
        .contains("physical port");
    assertThat(reason(LldpFrame.decode(new byte[3]))).contains("shorter");
    assertThat(reason(LldpFrame.decode(null))).contains("shorter");
  }
}
