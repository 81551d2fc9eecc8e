package org.netpubsub.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void theUnitIsInTheValue() {
    assertThat(Durations.parse("500ms", "--x")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("2s", "--x")).isEqualTo(Duration.ofSeconds(2));
    assertThat(Durations.parse("1.5m", "--x")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("1h", "--x")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("250us", "--x")).isEqualTo(Duration.ofNanos(250_000));
    assertThat(Durations.parse(" 0 ", "--x")).isZero();
  }

  @Test
  void aBareNumberTakesTheCallersUnit() {
    assertThat(Durations.parse("3", "--x")).isEqualTo(Duration.ofSeconds(3));
    assertThat(Durations.parse("2000", "--x-ms", "ms")).isEqualTo(Duration.ofSeconds(2));
    assertThat(Durations.parse("2s", "--x-ms", "ms")).isEqualTo(Duration.ofSeconds(2));
    assertThatThrownBy(() -> Durations.parse("3", "delay", null))
        .hasMessageContaining("not a duration");
  }

  @Test
  void badDurationsNameTheOption() {
    assertThatThrownBy(() -> Durations.parse("2 weeks", "--hold"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--hold")
        .hasMessageContaining("'2 weeks'");
    assertThatThrownBy(() -> Durations.parse("-1s", "--hold")).hasMessageContaining("--hold");
    assertThatThrownBy(() -> Durations.parse("400d", "--hold")).hasMessageContaining("--hold");
    assertThatThrownBy(() -> Durations.parse("9000h", "--hold")).hasMessageContaining("a year");
    assertThatThrownBy(() -> Durations.positive("0ms", "--hold")).hasMessageContaining("positive");
  }
}
