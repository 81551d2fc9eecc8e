package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;

class SegmentAddressesTest {
  @Property
  void anAddressNamesItsSwitchAndIndexAndLiesInItsSwitchPrefixOnly(
      @ForAll long dpid, @ForAll long other, @ForAll @IntRange(min = 0) int index) {
    Ipv6Address a = SegmentAddresses.of(dpid, index);
    assertThat(SegmentAddresses.isSegment(a)).isTrue();
    assertThat(SegmentAddresses.dpid(a)).isEqualTo(dpid);
    assertThat(SegmentAddresses.index(a)).isEqualTo(index);
    assertThat(SegmentAddresses.switchPrefix(dpid).matches(a)).isTrue();
    assertThat(SegmentAddresses.switchPrefix(other).matches(a)).isEqualTo(other == dpid);
  }

  @Test
  void theLayoutIsTheDocumentedOne() {
    assertThat(SegmentAddresses.of(0x2a, 3)).isEqualTo(Ipv6Address.parse("ff1e:5e00::2a:0:3"));
    assertThat(SegmentAddresses.switchPrefix(0x2a))
        .isEqualTo(MaskedIpv6.prefix(Ipv6Address.parse("ff1e:5e00::2a:0:0"), 96));
    assertThat(SegmentAddresses.isSegment(Ipv6Address.parse("ff0e:5e00::1"))).isFalse();
    assertThat(SegmentAddresses.localSid(0x2a, 5))
        .isEqualTo(Ipv6Address.parse("ff1e:5e00::2a:8000:5"));
    assertThatThrownBy(() -> SegmentAddresses.localSid(1, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
