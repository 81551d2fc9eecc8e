package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;

class PartitionsTest {
  /** The paper's Figure 6 partitions: {000, 0010, 0011, 01, 1}. */
  static final Partitions FIGURE_6 =
      Partitions.of(List.of(dz("000"), dz("0010"), dz("0011"), dz("01"), dz("1")));

  @Test
  void splitsARequestSpanningPartitionsAsThePaperDoes() {
    assertThat(FIGURE_6.split(DzSet.of(dz("00"))))
        .containsOnlyKeys(dz("000"), dz("0010"), dz("0011"))
        .containsEntry(dz("0010"), DzSet.of(dz("0010")));
  }

  @Test
  void keepsACellInsideOnePartitionWhole() {
    assertThat(FIGURE_6.split(DzSet.of(dz("0111"), dz("0000"))))
        .containsOnlyKeys(dz("01"), dz("000"))
        .containsEntry(dz("01"), DzSet.of(dz("0111")));
    assertThat(FIGURE_6.containing(dz("00111"))).isEqualTo(dz("0011"));
    assertThat(FIGURE_6.containing(dz("0"))).isNull();
  }

  @Test
  void uniformPartitionsAreAllDzOfOneLength() {
    Partitions p = Partitions.uniform(8);
    assertThat(p.all())
        .extracting(Dz::bits)
        .containsExactly("000", "001", "010", "011", "100", "101", "110", "111");
    assertThat(p.split(DzSet.ALL)).hasSize(8);
    assertThat(Partitions.uniform(1).split(DzSet.of(dz("01")))).containsOnlyKeys(Dz.EMPTY);
  }

  @Test
  void refusesPartitionsThatOverlapOrLeaveGaps() {
    assertThatThrownBy(() -> Partitions.of(List.of(dz("0"), dz("01"), dz("1"))))
        .hasMessageContaining("overlap");
    assertThatThrownBy(() -> Partitions.of(List.of(dz("00"), dz("1"))))
        .hasMessageContaining("do not cover");
    assertThatThrownBy(() -> Partitions.uniform(6)).hasMessageContaining("power of two");
  }

  static Dz dz(String bits) {
    return Dz.parse(bits);
  }
}
