package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.netpubsub.client.HostAddressSelector.Candidate;

class HostAddressSelectorTest {
  private static Candidate c(String nif, String address) {
    return new Candidate(nif, Ipv6Text.parse(address), true, nif.equals("lo"));
  }

  /** A test-bed host: data on eth0, management (towards the controller) on mgmt0. */
  private final List<Candidate> testbedHost =
      List.of(
          c("lo", "::1"),
          c("eth0", "fe80::6e:70ff:fe73:3"),
          c("eth0", "fd6e:7073:1::3"),
          c("mgmt0", "fe80::6e:70ff:feff:3"),
          c("mgmt0", "fd6e:7073:ffff::3"));

  @Test
  void picksTheDataAddressNotTheOneTowardsTheController() {
    assertThat(HostAddressSelector.select(testbedHost, Optional.of("mgmt0")).address())
        .isEqualTo(Ipv6Text.parse("fd6e:7073:1::3"));
  }

  @Test
  void twoCandidatesAreAmbiguousAndTheMessageListsThem() {
    assertThatThrownBy(() -> HostAddressSelector.select(testbedHost, Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("eth0 fd6e:7073:1::3")
        .hasMessageContaining("mgmt0 fd6e:7073:ffff::3")
        .hasMessageContaining("--host");
  }

  @Test
  void noneIsAnErrorNamingTheExcludedInterface() {
    List<Candidate> only = List.of(c("lo", "::1"), c("mgmt0", "fd6e:7073:ffff::3"));
    assertThatThrownBy(() -> HostAddressSelector.select(only, Optional.of("mgmt0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other than mgmt0")
        .hasMessageContaining("--host");
  }

  @Test
  void downInterfacesAndNonGlobalAddressesDoNotCount() {
    List<Candidate> cs =
        List.of(
            new Candidate("eth1", Ipv6Text.parse("2001:db8::1"), false, false),
            c("eth0", "fe80::1"),
            c("eth0", "ff0e::1"),
            c("eth0", "fec0::1"),
            c("eth0", "2001:db8::2"));
    assertThat(HostAddressSelector.select(cs, Optional.empty()).address())
        .isEqualTo(Ipv6Text.parse("2001:db8::2"));
  }

  /** A laptop: one network, a stable and a temporary (privacy) address, the controller beyond. */
  private final List<Candidate> laptop =
      List.of(
          c("lo", "::1"),
          c("wlan0", "fe80::1"),
          c("wlan0", "2001:db8:1:2:1c3a:55ff:fe10:b00c"),
          c("wlan0", "2001:db8:1:2:9d41:7e2:4a1:33"));

  @Test
  void theRouteToTheControllerChoosesAmongSeveralAddressesOfItsInterface() {
    for (String source :
        List.of("2001:db8:1:2:9d41:7e2:4a1:33", "2001:db8:1:2:1c3a:55ff:fe10:b00c")) {
      assertThat(
              HostAddressSelector.select(
                      laptop, Optional.of("wlan0"), Optional.of(Ipv6Text.parse(source)))
                  .address())
          .isEqualTo(Ipv6Text.parse(source));
    }
  }

  @Test
  void theRouteToTheControllerChoosesWhenOtherInterfacesHoldSeveral() {
    assertThat(
            HostAddressSelector.select(
                    testbedHost, Optional.empty(), Optional.of(Ipv6Text.parse("fd6e:7073:ffff::3")))
                .address())
        .isEqualTo(Ipv6Text.parse("fd6e:7073:ffff::3"));
  }

  @Test
  void aUniqueAddressBesideTheControllersInterfaceStillWinsOverTheRoute() {
    assertThat(
            HostAddressSelector.select(
                    testbedHost,
                    Optional.of("mgmt0"),
                    Optional.of(Ipv6Text.parse("fd6e:7073:ffff::3")))
                .address())
        .isEqualTo(Ipv6Text.parse("fd6e:7073:1::3"));
  }

  @Test
  void aRouteSourceThatIsNoGlobalAddressOfThisHostDoesNotChoose() {
    for (String source : List.of("::1", "fe80::1", "2001:db8:99::1")) {
      assertThatThrownBy(
              () ->
                  HostAddressSelector.select(
                      laptop, Optional.empty(), Optional.of(Ipv6Text.parse(source))))
          .as(source)
          .hasMessageContaining("several global IPv6 addresses")
          .hasMessageContaining("--host");
    }
  }
}
