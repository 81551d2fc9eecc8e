package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** The small pure parts: IPv6 text, the announcement target, the 429 wait. */
class ClientPartsTest {
  @Property(tries = 500)
  void formatRoundTripsAndIsCanonical(@ForAll @Size(16) byte[] bytes) throws Exception {
    // Mostly zeros, so that runs of zero groups (the interesting case) are common.
    for (int i = 0; i < 16; i++) {
      if ((bytes[i] & 3) != 0) {
        bytes[i] = 0;
      }
    }
    InetAddress a = InetAddress.getByAddress(bytes);
    if (!(a instanceof java.net.Inet6Address v6)) {
      return; // IPv4-mapped: Java turns it into IPv4
    }
    String text = Ipv6Address.format(v6);
    assertThat(Ipv6Text.parse(text).getAddress()).isEqualTo(bytes);
    assertThat(text).doesNotContain(":::").doesNotMatch(".*(^|:)0[0-9a-f].*");
    assertThat(text.indexOf("::")).isEqualTo(text.lastIndexOf("::"));
    assertThat(text).isEqualTo(text.toLowerCase());
  }

  @Test
  void formatExamples() {
    assertThat(Ipv6Address.format(Ipv6Text.parse("fd6e:7073:1:0:0:0:0:3")))
        .isEqualTo("fd6e:7073:1::3");
    assertThat(Ipv6Address.format(Ipv6Text.parse("::"))).isEqualTo("::");
    assertThat(Ipv6Address.format(Ipv6Text.parse("1:0:0:2:0:0:0:3"))).isEqualTo("1:0:0:2::3");
    assertThat(Ipv6Address.format(Ipv6Text.parse("1:0:2:3:4:5:6:7"))).isEqualTo("1:0:2:3:4:5:6:7");
    assertThat(Ipv6Address.format(Ipv6Text.parse("[fd6e:7073:ffff::c0]")))
        .isEqualTo("fd6e:7073:ffff::c0");
  }

  @Test
  void parseRefusesNamesAndIpv4() {
    for (String bad : new String[] {"localhost", "10.0.0.1", "", "fd6e::1::2", "::ffff:10.0.0.1"}) {
      assertThatThrownBy(() -> Ipv6Text.parse(bad), bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not an IPv6 address");
    }
  }

  @Test
  void announcementTargetIsAnUnusedAddressOfTheSlash64() {
    assertThat(NeighbourDiscoveryAnnouncer.target(Ipv6Text.parse("fd6e:7073:1::3")))
        .isEqualTo(Ipv6Text.parse("fd6e:7073:1::fffe"));
    assertThat(NeighbourDiscoveryAnnouncer.target(Ipv6Text.parse("fd6e:7073:1:0:1:2:3:4")))
        .isEqualTo(Ipv6Text.parse("fd6e:7073:1::fffe"));
    assertThat(NeighbourDiscoveryAnnouncer.target(Ipv6Text.parse("fd6e:7073:1::fffe")))
        .isEqualTo(Ipv6Text.parse("fd6e:7073:1::fffd"));
  }

  @Test
  void announcingNeverThrows() {
    // Not an address of this machine: the bind fails, the announcer logs and returns.
    new NeighbourDiscoveryAnnouncer().announce(Ipv6Text.parse("2001:db8::1"));
    new NeighbourDiscoveryAnnouncer().announce(Ipv6Text.parse("::1"));
  }

  @Test
  void retryAfterIsReadCappedAndBounded() {
    RetryPolicy p = new RetryPolicy(3, Duration.ofSeconds(2));
    ZonedDateTime now = ZonedDateTime.parse("2026-11-22T05:00:00Z");
    assertThat(p.afterRateLimit(0, Optional.of("1"), now)).isEqualTo(Duration.ofSeconds(1));
    assertThat(p.afterRateLimit(0, Optional.of("0.25"), now)).isEqualTo(Duration.ofMillis(250));
    assertThat(p.afterRateLimit(0, Optional.of("120"), now)).isEqualTo(Duration.ofSeconds(2));
    assertThat(p.afterRateLimit(0, Optional.of("-3"), now)).isEqualTo(Duration.ZERO);
    assertThat(p.afterRateLimit(0, Optional.empty(), now)).isEqualTo(RetryPolicy.DEFAULT_WAIT);
    assertThat(p.afterRateLimit(0, Optional.of("soon"), now)).isEqualTo(RetryPolicy.DEFAULT_WAIT);
    assertThat(p.afterRateLimit(1, Optional.of("Sun, 22 Nov 2026 05:00:01 GMT"), now))
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(p.afterRateLimit(3, Optional.of("0"), now)).isNull();
  }
}
