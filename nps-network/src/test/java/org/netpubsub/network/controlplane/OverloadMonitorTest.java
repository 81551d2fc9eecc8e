package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.controlplane.OverloadMonitor.Migration;

class OverloadMonitorTest {
  @Test
  void noMigrationWhenBalancedEvenIfEveryLoadRises() {
    OverloadMonitor m = new OverloadMonitor(3, 1.5);
    for (int ql = 1; ql <= 5; ql++) {
      assertThat(m.sample(List.of(q("00", ql, "01", ql), q("10", 2 * ql), q("11", 2 * ql))))
          .isEmpty();
    }
    assertThat(m.migrations()).isZero();
  }

  @Test
  void noMigrationOnASpikeOrAPlateau() {
    OverloadMonitor m = new OverloadMonitor(3, 1.5);
    assertThat(m.sample(List.of(q("000", 3, "001", 1, "01", 1), q("10", 5), q("11", 5)))).isEmpty();
    assertThat(m.sample(List.of(q("000", 3, "001", 1, "01", 1), q("10", 5), q("11", 5)))).isEmpty();
    // 30 / avg 13.3 > 1.5, but 5, 5, 30 is one jump, not a rise
    assertThat(m.sample(List.of(q("000", 20, "001", 6, "01", 4), q("10", 5), q("11", 5))))
        .isEmpty();
    // 5, 30, 30 is not strictly rising either
    assertThat(m.sample(List.of(q("000", 20, "001", 6, "01", 4), q("10", 5), q("11", 5))))
        .isEmpty();
    assertThat(m.migrations()).isZero();
  }

  @Test
  void migratesWhenTheOverloadRoseOverRisingSamplesSteps() {
    OverloadMonitor m = new OverloadMonitor(3, 1.5);
    assertThat(m.sample(List.of(q("000", 2, "001", 2, "01", 2), q("10", 5), q("11", 5)))).isEmpty();
    // overloaded (12 / 7.3) and rising, but over one step only
    assertThat(m.sample(List.of(q("000", 6, "001", 4, "01", 2), q("10", 5), q("11", 5)))).isEmpty();
    // 6 < 12 < 30: 000 (20) would bring c1 to 25 > 1.5 * 13.3, so 001 (6) moves
    assertThat(m.sample(List.of(q("000", 20, "001", 6, "01", 4), q("10", 5), q("11", 5))))
        .containsExactly(new Migration(Dz.parse("001"), 0, 1));
    assertThat(m.migrations()).isEqualTo(1);
    // the migration carried out, c0's load falls: no thrashing
    assertThat(m.sample(List.of(q("000", 22, "01", 4), q("10", 5, "001", 7), q("11", 5))))
        .isEmpty();
    assertThat(m.migrations()).isEqualTo(1);
  }

  @Test
  void aDrainingOverloadWhoseShareGrowsStillMigrates() {
    OverloadMonitor m = new OverloadMonitor(2, 1.2);
    // every queue drains, c1 much faster: c0's load falls, its share 1.5 → 1.7 → 1.9 rises
    m.sample(List.of(q("00", 30, "01", 30), q("1", 20)));
    m.sample(List.of(q("00", 25, "01", 26), q("1", 9)));
    // the heaviest partition fits: (2 + 20) / 20 = 1.1 <= 1.2
    assertThat(m.sample(List.of(q("00", 20, "01", 18), q("1", 2))))
        .containsExactly(new Migration(Dz.parse("00"), 0, 1));
  }

  @Test
  void oneRisingStepSufficesWhenConfiguredSo() {
    OverloadMonitor m = new OverloadMonitor(3, 1.5, 1);
    assertThat(m.sample(List.of(q("000", 3, "001", 1, "01", 1), q("10", 5), q("11", 5)))).isEmpty();
    assertThat(m.sample(List.of(q("000", 20, "001", 6, "01", 4), q("10", 5), q("11", 5))))
        .containsExactly(new Migration(Dz.parse("001"), 0, 1));
  }

  @Test
  void neverMigratesAConfiguratorsOnlyPartition() {
    OverloadMonitor m = new OverloadMonitor(3, 1.5);
    m.sample(List.of(q("0", 6), q("10", 5), q("11", 5)));
    m.sample(List.of(q("0", 12), q("10", 5), q("11", 5)));
    assertThat(m.sample(List.of(q("0", 30), q("10", 5), q("11", 5)))).isEmpty();
  }

  @Test
  void emptyQueuesNeverMoveAndNothingMovesWhenNoMoveFits() {
    OverloadMonitor m = new OverloadMonitor(3, 1.5);
    m.sample(List.of(q("000", 6, "001", 0), q("10", 5), q("11", 5)));
    m.sample(List.of(q("000", 12, "001", 0), q("10", 5), q("11", 5)));
    // 000 would overload c1; 001 is empty
    assertThat(m.sample(List.of(q("000", 30, "001", 0), q("10", 5), q("11", 5)))).isEmpty();
  }

  @Test
  void laterDecisionsOfASampleSeeEarlierMigrations() {
    OverloadMonitor m = new OverloadMonitor(4, 1.5);
    m.sample(List.of(q("a", 5, "b", 5), q("c", 5, "d", 4), q("e", 2), q("f", 4)));
    m.sample(List.of(q("a", 10, "b", 10), q("c", 10, "d", 9), q("e", 2), q("f", 4)));
    // avg 21, limit 31.5: c0 (40) sends b to c2 (2 → 12); c1 (38) then finds c3 (4) the least
    // loaded and sends d there; c (30) would overload either
    assertThat(m.sample(List.of(q("a", 30, "b", 10), q("c", 30, "d", 8), q("e", 2), q("f", 4))))
        .containsExactly(new Migration(dz("b"), 0, 2), new Migration(dz("d"), 1, 3));
    assertThat(m.migrations()).isEqualTo(2);
  }

  @Test
  void heavierOverloadIsHandledFirst() {
    OverloadMonitor m = new OverloadMonitor(3, 1.2, 1);
    m.sample(List.of(q("a", 1, "b", 1), q("c", 1, "d", 1), q("e", 1)));
    // avg 10, limit 12: c1 (16) first sends d (4) to c2 (1 → 5); c0 (13) then sends b (3) to c2
    assertThat(m.sample(List.of(q("a", 10, "b", 3), q("c", 12, "d", 4), q("e", 1))))
        .containsExactly(new Migration(dz("d"), 1, 2), new Migration(dz("b"), 0, 2));
  }

  @Test
  void noLoadNoMigration() {
    OverloadMonitor m = new OverloadMonitor(2, 1.5, 1);
    assertThat(m.sample(List.of(q("0", 0), q("1", 0)))).isEmpty();
    assertThat(m.sample(List.of(q("0", 0), q("1", 0)))).isEmpty();
  }

  @Test
  void rejectsBadParametersAndSamples() {
    assertThatThrownBy(() -> new OverloadMonitor(3, 1.0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OverloadMonitor(3, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OverloadMonitor(3, 1.5, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OverloadMonitor(0, 1.5))
        .isInstanceOf(IllegalArgumentException.class);
    OverloadMonitor m = new OverloadMonitor(2, 1.5);
    assertThat(m.risingSamples()).isEqualTo(OverloadMonitor.DEFAULT_RISING_SAMPLES);
    assertThatThrownBy(() -> m.sample(List.of(q("0", 1))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.sample(List.of(q("0", 1), q("0", 2))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.sample(List.of(q("0", -1), q("1", 2))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Partition names: bit strings, or letters a, b, … for distinct 3-bit partitions. */
  private static Dz dz(String name) {
    if (name.chars().allMatch(ch -> ch == '0' || ch == '1')) {
      return Dz.parse(name);
    }
    String bits = Integer.toBinaryString(8 | (name.charAt(0) - 'a')).substring(1);
    return Dz.parse(bits);
  }

  private static Map<Dz, Integer> q(Object... nameAndLength) {
    Map<Dz, Integer> queues = new LinkedHashMap<>();
    for (int i = 0; i < nameAndLength.length; i += 2) {
      queues.put(dz((String) nameAndLength[i]), (Integer) nameAndLength[i + 1]);
    }
    return queues;
  }
}
