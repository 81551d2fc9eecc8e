package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** URLs the edge commands print for an address they listen on. */
class ControllerUrlTest {
  @Test
  void anIpv6HostIsWrittenInRfc5952FormInBrackets() throws Exception {
    InetSocketAddress a = new InetSocketAddress(InetAddress.getByName("2001:db8:0:0:0:0:0:1"), 80);
    assertThat(ControllerUrl.host(a)).isEqualTo("[2001:db8::1]");
  }

  @Test
  void anIpv6HostLosesItsScopeAndAnIpv4HostHasNoBrackets() throws Exception {
    Inet6Address scoped =
        Inet6Address.getByAddress(
            null, InetAddress.getByName("fe80:0:0:0:0:0:0:1").getAddress(), 3);
    assertThat(ControllerUrl.host(new InetSocketAddress(scoped, 80))).isEqualTo("[fe80::1]");
    assertThat(ControllerUrl.host(new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 80)))
        .isEqualTo("10.0.0.1");
  }

  @Test
  void aListeningIpv6AddressIsBracketedAndAnythingElseIsWrittenAsGiven() throws Exception {
    InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("0:0:0:0:0:0:0:1"), 6653);
    assertThat(ControllerUrl.listenHost(v6) + ":" + v6.getPort()).isEqualTo("[::1]:6653");
    assertThat(ControllerUrl.listenHost(new InetSocketAddress("127.0.0.1", 6653)))
        .isEqualTo("127.0.0.1");
    assertThat(ControllerUrl.listenHost(InetSocketAddress.createUnresolved("localhost", 80)))
        .isEqualTo("localhost");
  }
}
