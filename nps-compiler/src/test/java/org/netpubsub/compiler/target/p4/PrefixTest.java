package org.netpubsub.compiler.target.p4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.pipeline.Tcam;

/** Prefix expansion against brute force: exactly the range, disjoint, as few as Tcam counts. */
class PrefixTest {
  @Test
  void everyRangeOfSixBitsIsCoveredExactlyByTheCountedPrefixes() {
    for (long lo = 0; lo < 64; lo++) {
      for (long hi = lo; hi < 64; hi++) {
        List<Prefix> ps = Prefix.cover(lo, hi, 6);
        assertThat(ps).as("[%d, %d]", lo, hi).hasSize(Tcam.prefixes(lo, hi, 6));
        for (long v = 0; v < 64; v++) {
          long vv = v;
          long hits = ps.stream().filter(p -> p.matches(vv)).count();
          assertThat(hits).as("%d in [%d, %d]", v, lo, hi).isEqualTo(v >= lo && v <= hi ? 1 : 0);
        }
        for (int i = 1; i < ps.size(); i++) {
          assertThat(ps.get(i).value()).isEqualTo(ps.get(i - 1).last() + 1);
        }
      }
    }
  }

  @Test
  void sixtyFourBitEdges() {
    assertThat(Prefix.cover(0, -1L, 64)).containsExactly(new Prefix(0, 0, 64));
    assertThat(Prefix.cover(Long.MIN_VALUE, -1L, 64))
        .containsExactly(new Prefix(Long.MIN_VALUE, 1, 64));
    List<Prefix> top = Prefix.cover(-2L, -1L, 64);
    assertThat(top).containsExactly(new Prefix(-2L, 63, 64));
    assertThat(top.get(0).mask()).isEqualTo(-2L);
    assertThat(top.get(0).last()).isEqualTo(-1L);
    assertThat(Prefix.cover(1, -1L, 64)).hasSize(64);
    assertThat(new Prefix(-1L, 64, 64).matches(-1L)).isTrue();
    assertThat(new Prefix(-1L, 64, 64).matches(-2L)).isFalse();
  }

  @Test
  void badInputIsRefused() {
    assertThatThrownBy(() -> Prefix.cover(5, 4, 8)).hasMessageContaining("no range of 8 bits");
    assertThatThrownBy(() -> Prefix.cover(0, 256, 8)).hasMessageContaining("no range of 8 bits");
    assertThatThrownBy(() -> new Prefix(1, 7, 8)).hasMessageContaining("bits beyond its /7");
    assertThatThrownBy(() -> new Prefix(0, 9, 8)).hasMessageContaining("a prefix of 9 of 8");
  }
}
