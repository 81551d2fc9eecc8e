package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Missed deadlines: once per silence, noticed late or at the late message, never twice. */
class DeadlineMonitorTest {
  @Test
  void eachSilenceIsOneMiss() {
    DeadlineMonitor d = new DeadlineMonitor(Map.of("a/#", 100L, "a/b", 50L));
    assertThat(d.observe("x/1", 0)).isEmpty(); // no deadline
    assertThat(d.observe("a/b", 0)).isEmpty(); // starts; the tighter deadline applies
    assertThat(d.observe("a/b", 50)).isEmpty();
    assertThat(d.overdue(100)).isEmpty();
    assertThat(d.overdue(101)).containsExactly(new DeadlineMonitor.Miss("a/b", 50, 51));
    assertThat(d.overdue(500)).isEmpty(); // reported already
    assertThat(d.observe("a/b", 600)).isEmpty(); // the same silence
    assertThat(d.observe("a/b", 700)).contains(new DeadlineMonitor.Miss("a/b", 50, 100));
    assertThat(d.overdue(10_000)).hasSize(1);
    assertThat(d.overdue(20_000)).isEmpty();
  }
}
