package org.netpubsub.content.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv6AddressTest {

  @ParameterizedTest
  @CsvSource({
    "::, ::",
    "::1, ::1",
    "1::, 1::",
    "ff0e::1, ff0e::1",
    "FF0E:0:0:0:0:0:0:1, ff0e::1",
    "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1", // the first of two equal runs
    "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1", // a single zero group is not compressed
    "2001:0:0:1:0:0:0:1, 2001:0:0:1::1", // the longest run
    "::ffff:1.2.3.4, ::ffff:102:304",
    "0:0:0:0:0:0:1.2.3.4, ::102:304",
    "ff0e:c000::, ff0e:c000::"
  })
  void parsesAnyFormAndWritesRfc5952(String text, String canonical) {
    assertThat(Ipv6Address.parse(text).toString()).isEqualTo(canonical);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        ":",
        ":::",
        "1::2::3",
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9",
        "12345::",
        "g::",
        "1:2:3:4:5:6:7:8::",
        "::1.2.3",
        "::256.1.1.1",
        ":1::2",
        "1.2.3.4::"
      })
  void rejectsMalformedAddresses(String text) {
    assertThatThrownBy(() -> Ipv6Address.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an IPv6 address");
  }

  @Test
  void groupsAndBitOperations() {
    Ipv6Address a = Ipv6Address.parse("ff0e:1:2:3:4:5:6:7");
    assertThat(a.group(0)).isEqualTo(0xff0e);
    assertThat(a.group(7)).isEqualTo(7);
    assertThat(Ipv6Address.ofGroups(0xff0e, 1, 2, 3, 4, 5, 6, 7)).isEqualTo(a);
    assertThat(a.and(Ipv6Address.prefixMask(16))).isEqualTo(Ipv6Address.parse("ff0e::"));
    assertThat(a.xor(a).isZero()).isTrue();
    assertThat(a.not().not()).isEqualTo(a);
  }

  @Test
  void prefixMasksAndTheirLengths() {
    assertThat(Ipv6Address.prefixMask(0)).isEqualTo(Ipv6Address.ZERO);
    assertThat(Ipv6Address.prefixMask(128)).isEqualTo(Ipv6Address.ALL_ONES);
    assertThat(Ipv6Address.prefixMask(19).toString()).isEqualTo("ffff:e000::");
    assertThat(Ipv6Address.prefixMask(72).toString()).isEqualTo("ffff:ffff:ffff:ffff:ff00::");
    assertThat(Ipv6Address.parse("ffff:e000::").prefixLength()).isEqualTo(19);
    assertThat(Ipv6Address.parse("ffff:0:ffff::").prefixLength()).isEqualTo(-1);
    assertThatThrownBy(() -> Ipv6Address.prefixMask(129))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Property(tries = 500)
  void textRoundTrips(@ForAll long high, @ForAll long low) {
    Ipv6Address a = new Ipv6Address(high, low);
    assertThat(Ipv6Address.parse(a.toString())).isEqualTo(a);
  }

  @Property(tries = 200)
  void sparseAddressesRoundTrip(@ForAll @IntRange(min = 0, max = 255) int bits) {
    // Addresses with many zero groups exercise the "::" placement.
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = (bits >> i & 1) == 0 ? 0 : 0x1000 + i;
    }
    Ipv6Address a = Ipv6Address.ofGroups(groups);
    assertThat(Ipv6Address.parse(a.toString())).isEqualTo(a);
    assertThat(a.toString()).doesNotContain(":::");
  }

  @Property(tries = 200)
  void prefixLengthInvertsPrefixMask(@ForAll @IntRange(min = 0, max = 128) int length) {
    assertThat(Ipv6Address.prefixMask(length).prefixLength()).isEqualTo(length);
  }

  @Test
  void ordersUnsigned() {
    assertThat(Ipv6Address.parse("ff0e::").compareTo(Ipv6Address.parse("::1"))).isPositive();
    assertThat(Ipv6Address.parse("::ffff").compareTo(Ipv6Address.parse("::1"))).isPositive();
  }

  @Test
  void compressesTheLongestZeroRun() {
    byte[] b = new byte[16];
    b[0] = (byte) 0xff;
    b[1] = 0x0e;
    b[5] = 1; // group 2 = 1, then zeros
    b[15] = 2; // last group 2
    assertThat(Ipv6Address.of(b).toString()).isEqualTo("ff0e:0:1::2");
    b[7] = 3; // group 3 = 3: two runs (4..6 longer than 1)
    assertThat(Ipv6Address.of(b).toString()).isEqualTo("ff0e:0:1:3::2");
  }

  @Test
  void formatsJdkAddressesInRfc5952FormWithOrWithoutTheirZoneAndIpv4AsTheJdk() throws Exception {
    byte[] b = Ipv6Address.parse("2001:db8::1").bytes();
    Inet6Address plain = (Inet6Address) InetAddress.getByAddress(b);
    assertThat(plain.getHostAddress()).isEqualTo("2001:db8:0:0:0:0:0:1"); // the JDK's form
    assertThat(Ipv6Address.format(plain)).isEqualTo("2001:db8::1");
    assertThat(Ipv6Address.formatWithZone(plain)).isEqualTo("2001:db8::1");
    byte[] link = Ipv6Address.parse("fe80::1").bytes();
    Inet6Address scoped = Inet6Address.getByAddress(null, link, 3);
    assertThat(Ipv6Address.format(scoped)).isEqualTo("fe80::1");
    assertThat(Ipv6Address.formatWithZone(scoped)).isEqualTo("fe80::1%3");
    // the JDK reads the zone back (equals ignores it): the same address and scope
    Inet6Address back = (Inet6Address) InetAddress.getByName(Ipv6Address.formatWithZone(scoped));
    assertThat(back.getAddress()).isEqualTo(link);
    assertThat(back.getScopeId()).isEqualTo(3);
    assertThat(Ipv6Address.formatWithZone(InetAddress.getByName("10.0.0.1"))).isEqualTo("10.0.0.1");
  }
}
