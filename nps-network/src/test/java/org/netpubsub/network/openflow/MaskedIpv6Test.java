package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

class MaskedIpv6Test {

  @Test
  void keepsTheValueUnderTheMask() {
    MaskedIpv6 m = MaskedIpv6.parse("ff0e:c001::/ffff:e000::");
    assertThat(m.value()).isEqualTo(Ipv6Address.parse("ff0e:c000::"));
    assertThat(m).isEqualTo(MaskedIpv6.parse("ff0e:c000::/19"));
  }

  @Test
  void writesCidrAsLengthAndOtherMasksInFull() {
    assertThat(MaskedIpv6.parse("ff0e:c000::/ffff:e000::")).hasToString("ff0e:c000::/19");
    assertThat(MaskedIpv6.parse("ff0e::1/ffff::ffff")).hasToString("ff0e::1/ffff::ffff");
    assertThat(MaskedIpv6.parse("ff0e::1")).hasToString("ff0e::1");
    assertThat(MaskedIpv6.parse("ff0e::1/128")).hasToString("ff0e::1");
  }

  @Test
  void matchesNonCidrMasks() {
    // Bits 16 and 31 fixed to 1 and 0; the rest free.
    MaskedIpv6 m = MaskedIpv6.parse("ff0e:8000::/ffff:8001::");
    assertThat(m.matches(Ipv6Address.parse("ff0e:8000::1"))).isTrue();
    assertThat(m.matches(Ipv6Address.parse("ff0e:fffe:1::"))).isTrue();
    assertThat(m.matches(Ipv6Address.parse("ff0e:ffff::"))).isFalse();
    assertThat(m.matches(Ipv6Address.parse("ff0e:7000::"))).isFalse();
    assertThat(m.matches(Ipv6Address.parse("ff0f:8000::"))).isFalse();
  }

  @Test
  void coversAndOverlaps() {
    MaskedIpv6 wide = MaskedIpv6.parse("ff0e::/16");
    MaskedIpv6 narrow = MaskedIpv6.parse("ff0e:8000::/17");
    MaskedIpv6 scattered = MaskedIpv6.parse("ff0e:0001::/ffff:0001::");
    assertThat(wide.covers(narrow)).isTrue();
    assertThat(narrow.covers(wide)).isFalse();
    assertThat(wide.covers(scattered)).isTrue();
    assertThat(narrow.covers(scattered)).isFalse();
    assertThat(narrow.overlaps(scattered)).isTrue(); // ff0e:8001:: is in both
    assertThat(narrow.overlaps(MaskedIpv6.parse("ff0e::/17"))).isFalse();
  }
}
