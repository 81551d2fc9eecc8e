package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CpuBoundTest {
  @Test
  void aLoopThatNeverEndsFailsOnceItHasUsedItsCpuTime() {
    assertThatThrownBy(
            () ->
                CpuBound.within(
                    Duration.ofMillis(50),
                    () -> {
                      long x = 0;
                      while (!Thread.currentThread().isInterrupted()) {
                        x++;
                      }
                      return x;
                    }))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("used more than PT0.05S of CPU time");
  }

  @Test
  void aQuickActionGivesItsResultAndItsFailure() {
    assertThat(CpuBound.within(Duration.ofSeconds(5), () -> 6 * 7)).isEqualTo(42);
    assertThatThrownBy(
            () ->
                CpuBound.within(
                    Duration.ofSeconds(5),
                    () -> {
                      throw new IllegalStateException("boom");
                    }))
        .hasRootCauseMessage("boom");
  }
}
