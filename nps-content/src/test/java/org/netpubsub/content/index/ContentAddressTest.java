package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** dz ↔ IPv6 multicast address, with the paper's examples. */
class ContentAddressTest {

  @Test
  void paperExamples() {
    assertThat(ContentAddress.of(Dz.parse("110010"))).hasToString("ff0e:c800::/22");
    assertThat(ContentAddress.of(Dz.parse("110010")).addressString()).isEqualTo("ff0e:c800::");
    assertThat(ContentAddress.of(Dz.parse("101101"))).hasToString("ff0e:b400::/22");
    assertThat(ContentAddress.of(Dz.parse("101"))).hasToString("ff0e:a000::/19");
    assertThat(ContentAddress.of(Dz.parse("110"))).hasToString("ff0e:c000::/19");
    assertThat(ContentAddress.of(Dz.EMPTY)).hasToString("ff0e::/16");
    // ff0e:a000::/19 ≻ ff0e:b400::/22
    assertThat(
            ContentAddress.parse("ff0e:a000::/19").covers(ContentAddress.parse("ff0e:b400::/22")))
        .isTrue();
  }

  @Test
  void parsesBackToTheDz() {
    assertThat(ContentAddress.parse("ff0e:c800::/22").dz()).isEqualTo(Dz.parse("110010"));
    assertThat(ContentAddress.parse("FF0E:C000:0:0::/19").dz()).isEqualTo(Dz.parse("110"));
    // An event address read with a shorter prefix: the mask ignores the rest.
    assertThat(ContentAddress.parse("ff0e:c800::/19").dz()).isEqualTo(Dz.parse("110"));
  }

  @Test
  void rejectsAddressesOutsideFf0e() {
    assertThatThrownBy(() -> ContentAddress.parse("ff02::1/22")).hasMessageContaining("ff0e::/16");
    assertThatThrownBy(() -> ContentAddress.parse("ff0e::/8")).hasMessageContaining("16..128");
    assertThatThrownBy(() -> ContentAddress.parse("ff0e::")).hasMessageContaining("prefix length");
    assertThatThrownBy(() -> ContentAddress.parse("example.com/20"))
        .hasMessageContaining("not an IPv6 address");
    assertThatThrownBy(() -> ContentAddress.parse("ff0e:::1/20"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ContentAddress.parse("ff0e::/x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Provide
  Arbitrary<Dz> dzs() {
    return Arbitraries.strings()
        .withChars('0', '1')
        .ofMinLength(0)
        .ofMaxLength(Dz.MAX_LENGTH)
        .map(Dz::parse);
  }

  @Property(tries = 500)
  void roundTripsThroughInet6Address(@ForAll("dzs") Dz dz) throws Exception {
    ContentAddress a = ContentAddress.of(dz);
    Inet6Address inet = a.address();
    assertThat(ContentAddress.of(inet, a.prefixLength()).dz()).isEqualTo(dz);
    assertThat(ContentAddress.parse(a.toString())).isEqualTo(a);
    // Our compressed text and Java's full text name the same address.
    assertThat(InetAddress.getByName(a.addressString())).isEqualTo(inet);
    assertThat(a.addressString()).doesNotContain(":::").matches("[0-9a-f:]+");
  }

  @Property(tries = 300)
  void coveringDzMeansCoveringPrefix(@ForAll("dzs") Dz a, @ForAll("dzs") Dz b) {
    assertThat(ContentAddress.of(a).covers(ContentAddress.of(b))).isEqualTo(a.covers(b));
  }
}
