package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;

class SliceOrderTest {
  @Test
  void coarserSubscriptionsOfDistinctHostsGoFirst() {
    // the paper's Fig. 7: {0} before {00} saves the add and delete of the finer flow
    ControlRequest fine = sub("s1", 1, "00");
    ControlRequest coarse = sub("s2", 2, "0");
    ControlRequest other = sub("s3", 3, "1");
    assertThat(SliceOrder.reorder(List.of(fine, coarse))).containsExactly(coarse, fine);
    assertThat(SliceOrder.reorder(List.of(fine, coarse, other)))
        .containsExactly(coarse, other, fine);
  }

  @Test
  void oneHostsRequestsKeepTheirOrder() {
    ControlRequest fine = sub("s1", 1, "00");
    ControlRequest coarse = sub("s2", 1, "0");
    assertThat(SliceOrder.reorder(List.of(fine, coarse))).containsExactly(fine, coarse);
    // another host's coarse request may still overtake host 1's fine one
    ControlRequest other = sub("s3", 2, "1");
    assertThat(SliceOrder.reorder(List.of(fine, other, coarse)))
        .containsExactly(other, fine, coarse);
  }

  @Test
  void finerWithdrawalsGoFirst() {
    ControlRequest coarse = sub("s1", 1, "0").withdrawal();
    ControlRequest fine = sub("s2", 2, "00").withdrawal();
    assertThat(SliceOrder.reorder(List.of(coarse, fine))).containsExactly(fine, coarse);
  }

  @Test
  void neverReordersAcrossKinds() {
    ControlRequest fineSub = sub("s1", 1, "00");
    ControlRequest coarseUnsub = sub("s2", 2, "0").withdrawal();
    ControlRequest coarseSub = sub("s3", 3, "0");
    ControlRequest coarseAdv = ControlRequest.advertise("a1", host(4), cells("0"));
    ControlRequest fineSub2 = sub("s4", 5, "01");
    assertThat(SliceOrder.reorder(List.of(fineSub, coarseUnsub, coarseSub)))
        .containsExactly(fineSub, coarseUnsub, coarseSub);
    assertThat(SliceOrder.reorder(List.of(fineSub, coarseAdv, fineSub2, coarseSub)))
        .containsExactly(fineSub, coarseAdv, coarseSub, fineSub2);
  }

  @Test
  void equalVolumesKeepTheirOrderAndTinySlicesAreReturnedAsIs() {
    ControlRequest a = sub("s1", 1, "0");
    ControlRequest b = sub("s2", 2, "1");
    assertThat(SliceOrder.reorder(List.of(a, b))).containsExactly(a, b);
    assertThat(SliceOrder.reorder(List.of(a))).containsExactly(a);
    assertThat(SliceOrder.reorder(List.of())).isEmpty();
  }

  static ControlRequest sub(String id, int host, String... cells) {
    return ControlRequest.subscribe(id, host(host), 5000 + host, cells(cells));
  }

  static Ipv6Address host(int i) {
    return new Ipv6Address(0x20010db800000000L, i);
  }

  static DzSet cells(String... bits) {
    Dz[] dzs = new Dz[bits.length];
    for (int i = 0; i < bits.length; i++) {
      dzs[i] = Dz.parse(bits[i]);
    }
    return DzSet.of(dzs);
  }
}
