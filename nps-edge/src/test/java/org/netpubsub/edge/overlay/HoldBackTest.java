package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HoldBackTest {
  private final List<Long> out = new ArrayList<>();

  private static HoldBack<Long> holdBack() {
    return new HoldBack<>(100, 1000, 8, 1 << 20, 1 << 20, 4, 1000);
  }

  private void offer(HoldBack<Long> h, String origin, long seq, boolean reliable, long now) {
    h.offer(origin, "t", 7, seq, reliable, seq, 10, now, out);
  }

  @Test
  void aGapHoldsLaterReliableMessagesUntilItIsRepairedThenReleasesThemInOrder() {
    HoldBack<Long> h = holdBack();
    offer(h, "a", 10, true, 0);
    offer(h, "a", 11, true, 0);
    offer(h, "a", 13, true, 1);
    offer(h, "a", 14, true, 2);
    assertThat(out).containsExactly(10L, 11L);
    assertThat(h.held()).isEqualTo(2);
    offer(h, "a", 12, true, 50); // the repair
    assertThat(out).containsExactly(10L, 11L, 12L, 13L, 14L);
    assertThat(h.held()).isZero();
    assertThat(h.heldBytes()).isZero();
    assertThat(h.lost()).isZero();
  }

  @Test
  void aGapNotRepairedInTimeIsCountedLostAndItsLateRepairIsDropped() {
    HoldBack<Long> h = holdBack();
    offer(h, "a", 10, true, 0);
    offer(h, "a", 13, true, 5); // 11 and 12 missing since 5
    h.due(104, out);
    assertThat(out).containsExactly(10L);
    h.due(105, out);
    assertThat(out).containsExactly(10L, 13L);
    assertThat(h.lost()).isEqualTo(2);
    assertThat(h.released()).isEqualTo(1);
    offer(h, "a", 12, true, 106);
    assertThat(out).containsExactly(10L, 13L);
    assertThat(h.tooLate()).isEqualTo(1);
  }

  @Test
  void aBestEffortMessageIsNeverHeldAndFillsItsNumber() {
    HoldBack<Long> h = holdBack();
    offer(h, "a", 10, true, 0);
    offer(h, "a", 12, false, 1); // best effort, behind a gap: delivered now
    offer(h, "a", 13, true, 1);
    assertThat(out).containsExactly(10L, 12L);
    offer(h, "a", 11, true, 2);
    assertThat(out).containsExactly(10L, 12L, 11L, 13L);
    assertThat(h.lost()).isZero();
  }

  @Test
  void aSequenceHoldingTooManyEntriesOrBytesReleasesItsFront() {
    HoldBack<Long> h = new HoldBack<>(100, 1000, 3, 1 << 20, 1 << 20, 4, 1000);
    offer(h, "a", 0, true, 0);
    for (long s = 2; s <= 5; s++) { // 1 missing; the fourth held entry is one too many
      offer(h, "a", s, true, 0);
    }
    assertThat(out).containsExactly(0L, 2L, 3L, 4L, 5L);
    assertThat(h.lost()).isEqualTo(1);

    out.clear();
    long bytes = 2 * (10 + HoldBack.ENTRY_OVERHEAD);
    HoldBack<Long> b = new HoldBack<>(100, 1000, 100, bytes, bytes, 4, 1000);
    offer(b, "a", 0, true, 0);
    offer(b, "a", 2, true, 0);
    offer(b, "a", 4, true, 0);
    assertThat(out).containsExactly(0L);
    offer(b, "a", 5, true, 0); // a third entry's bytes: over
    assertThat(out).containsExactly(0L, 2L);
    assertThat(b.heldBytes()).isEqualTo(bytes);
  }

  @Test
  void allSequencesTogetherOverTheirBytesReleaseTheOldestHoldingFront() {
    long bytes = 3 * (10 + HoldBack.ENTRY_OVERHEAD);
    HoldBack<Long> h = new HoldBack<>(100, 1000, 100, bytes, bytes, 4, 1000);
    offer(h, "a", 0, true, 0);
    offer(h, "b", 100, true, 0);
    offer(h, "a", 2, true, 1);
    offer(h, "b", 102, true, 2);
    offer(h, "b", 103, true, 3);
    offer(h, "b", 105, true, 4); // a fourth held entry in all: a's gap is the oldest
    assertThat(out).containsExactly(0L, 100L, 2L);
    assertThat(h.lost()).isEqualTo(1);
  }

  @Test
  void sequencesAreBoundedReleasedWhenEvictedAndForgottenWhenIdle() {
    HoldBack<Long> h = new HoldBack<>(100, 1000, 100, 1 << 20, 1 << 20, 2, 1000);
    offer(h, "a", 0, true, 0);
    offer(h, "a", 2, true, 0); // held
    offer(h, "b", 50, true, 1);
    offer(h, "c", 70, true, 2); // a, least recently used, goes: its held entry released
    assertThat(out).containsExactly(0L, 50L, 2L, 70L);
    assertThat(h.size()).isEqualTo(2);
    assertThat(h.evicted()).isEqualTo(1);
    h.due(1003, out);
    assertThat(h.size()).isZero();
  }

  @Test
  void anotherSessionReleasesWhatIsHeldAndHistoryBelowTheFirstPassesAtOnce() {
    HoldBack<Long> h = holdBack();
    offer(h, "a", 10, true, 0);
    offer(h, "a", 12, true, 0);
    offer(h, "a", 8, true, 0); // a late joiner's history
    assertThat(out).containsExactly(10L, 8L);
    assertThat(h.late()).isEqualTo(1);
    h.offer("a", "t", 9, 500, true, 500L, 10, 1, out); // the origin restarted
    assertThat(out).containsExactly(10L, 8L, 12L, 500L);
    assertThat(h.lost()).isEqualTo(1);
    offer(h, "a", 3000, true, 2); // 7's first number after a restart, or a far jump
    assertThat(out).endsWith(3000L);
  }

  @Test
  void aSecondCopyOfAHeldNumberIsDropped() {
    HoldBack<Long> h = holdBack();
    offer(h, "a", 0, true, 0);
    offer(h, "a", 2, true, 0);
    offer(h, "a", 2, true, 0);
    offer(h, "a", 1, true, 0);
    assertThat(out).containsExactly(0L, 1L, 2L);
    assertThat(h.duplicates()).isEqualTo(1);
  }

  @Test
  void boundsMustBePositive() {
    assertThatThrownBy(() -> new HoldBack<>(100, 1000, 0, 1, 1, 1, 1))
        .hasMessageContaining("maxEntries");
    assertThatThrownBy(() -> new HoldBack<>(100, 1000, 1, 2, 1, 1, 1))
        .hasMessageContaining("maxTotalBytes");
  }
}
