package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The local switch's answers and address as a client reads them (docs/local.md). */
class LocalAttachmentTest {
  static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

  @Test
  void anAnswerGivesTheHostAndItsCableARefusalItsReason() throws Exception {
    LocalAttachment a = LocalAttachment.parse("nps-local host fd6e:7073:1::3 40123\n", LOOPBACK);
    assertThat(a.host()).isEqualTo(Ipv6Text.parse("fd6e:7073:1::3"));
    assertThat(a.cable()).isEqualTo(new InetSocketAddress(LOOPBACK, 40123));
    assertThatThrownBy(() -> LocalAttachment.parse("nps-local error the network is full", LOOPBACK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the local switch refused: the network is full");
    assertThatThrownBy(() -> LocalAttachment.parse("hello", LOOPBACK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unexpected answer");
    assertThatThrownBy(() -> LocalAttachment.parse("nps-local host ::1 port", LOOPBACK))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theSwitchAddressIsBracketedAddressAndPort() throws Exception {
    assertThat(LocalAttachment.parseSwitch("[::1]:7000"))
        .isEqualTo(new InetSocketAddress(InetAddress.getByName("::1"), 7000));
    for (String bad : new String[] {"::1:7000", "[::1]", "[::1]:x", "localhost:7000"}) {
      assertThatThrownBy(() -> LocalAttachment.parseSwitch(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("local_switch must be [ADDRESS]:PORT");
    }
  }
}
