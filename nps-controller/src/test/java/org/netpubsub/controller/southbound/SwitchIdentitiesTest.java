package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Which dpids an OpenFlow-TLS switch certificate may claim. */
class SwitchIdentitiesTest {

  @Test
  void aDpidNameClaimsExactlyItsDpid() {
    SwitchIdentities ids = SwitchIdentities.namesOnly();
    assertThat(ids.allows("dpid-000000000000002a id:27fd1635-edbf", 42)).isTrue();
    assertThat(ids.allows("dpid-2a", 42)).isTrue();
    assertThat(ids.allows("dpid-000000000000002a id:27fd1635-edbf", 43)).isFalse();
    assertThat(ids.allows("dpid-zz", 0)).isFalse();
    assertThat(ids.allows("s1 id:27fd1635", 1)).isFalse();
    assertThat(ids.allows("", 1)).isFalse();
  }

  @Test
  void theSwitchesFileGrantsListedDpidsOrAll() {
    SwitchIdentities ids =
        SwitchIdentities.parse("# test bed\n\nedge 1 00:00:00:00:00:00:00:02\nlab *\n");
    assertThat(ids.allows("edge id:x", 1)).isTrue();
    assertThat(ids.allows("edge id:x", 2)).isTrue();
    assertThat(ids.allows("edge id:x", 3)).isFalse();
    assertThat(ids.allows("lab id:y", -1L)).isTrue();
    assertThat(ids.allows("other id:z", 1)).isFalse();
  }

  @Test
  void badLinesAreRefusedWithTheirNumber() {
    assertThatThrownBy(() -> SwitchIdentities.parse("ok 1\nlonely\n"))
        .hasMessageContaining("line 2");
    assertThatThrownBy(() -> SwitchIdentities.parse("x 1ffffffffffffffff"))
        .hasMessageContaining("bad dpid");
  }

  @Test
  void theCommonNameIsReadFromTheSubject() {
    assertThat(
            SwitchIdentities.commonName(
                "CN=sw1 id:27fd,OU=Open vSwitch certifier,O=Open vSwitch,ST=CA,C=US"))
        .isEqualTo("sw1 id:27fd");
    assertThat(SwitchIdentities.commonName("O=x\\,CN=fake,C=US")).isEmpty();
    assertThat(SwitchIdentities.commonName("O=x")).isEmpty();
  }
}
