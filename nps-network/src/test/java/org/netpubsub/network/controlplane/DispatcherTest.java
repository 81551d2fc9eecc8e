package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.network.controlplane.PartitionsTest.dz;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;

class DispatcherTest {
  static final Ipv6Address HOST = new Ipv6Address(0x20010db800000000L, 1);

  @Test
  void aWithdrawalReachesThePartitionsOfWhatItWithdraws() {
    Dispatcher d = new Dispatcher(PartitionsTest.FIGURE_6);
    ControlRequest s = ControlRequest.subscribe("s1", HOST, 7000, DzSet.of(dz("00"), dz("1")));
    assertThat(d.split(s)).containsOnlyKeys(dz("000"), dz("0010"), dz("0011"), dz("1"));
    // the withdrawal names only the id: its own cells are ignored
    var parts = d.split(s.withCells(DzSet.EMPTY).withdrawal());
    assertThat(parts).containsOnlyKeys(dz("000"), dz("0010"), dz("0011"), dz("1"));
    assertThat(parts.values())
        .allSatisfy(p -> assertThat(p.kind()).isEqualTo(ControlRequest.Kind.UNSUBSCRIBE));
    assertThat(d.standing()).isZero();
  }

  @Test
  void refusesDuplicatesAndUnknownWithdrawalsWithoutChangingAnything() {
    Dispatcher d = new Dispatcher(Partitions.uniform(4));
    ControlRequest a = ControlRequest.advertise("a1", HOST, DzSet.ALL);
    d.split(a);
    assertThatThrownBy(() -> d.split(a)).hasMessageContaining("exists");
    assertThatThrownBy(
            () -> d.split(ControlRequest.subscribe("a1", HOST, 1, DzSet.ALL).withdrawal()))
        .hasMessageContaining("no subscription a1");
    assertThat(d.standing()).isEqualTo(1);
    assertThat(d.split(a.withdrawal())).hasSize(4);
  }
}
