package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.content.index.ContentAddress;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.openflow.Ipv6Address;

/** A content flow's address from the dz's bits against the address its bytes spell. */
class ContentFlowsProperties {
  @Property(tries = 300)
  void theAddressIsTheContentAddress(
      @ForAll long bits, @ForAll long more, @ForAll @IntRange(max = Dz.MAX_LENGTH) int length) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      long word = i < 64 ? bits : more;
      s.append((word >>> (63 - i % 64)) & 1);
    }
    Dz dz = Dz.parse(s.toString());
    byte[] b = ContentAddress.of(dz).bytes();
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < 8; i++) {
      hi = hi << 8 | (b[i] & 0xff);
      lo = lo << 8 | (b[8 + i] & 0xff);
    }
    assertThat(ContentFlows.address(dz)).isEqualTo(new Ipv6Address(hi, lo));
  }
}
