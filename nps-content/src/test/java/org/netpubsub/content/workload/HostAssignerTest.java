package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostAssignerTest {
  private static List<Integer> assign(HostAssigner a, int... hotspots) {
    List<Integer> out = new ArrayList<>();
    for (int h : hotspots) {
      out.add(a.next(h));
    }
    return out;
  }

  @Test
  void roundRobinCycles() {
    HostAssigner a = new HostAssigner(HostAssignment.ROUND_ROBIN, 3, 0, new Rand(1));
    assertThat(assign(a, -1, -1, -1, -1, -1)).containsExactly(0, 1, 2, 0, 1);
  }

  @Test
  void randomStaysInRangeAndReachesEveryHost() {
    HostAssigner a = new HostAssigner(HostAssignment.RANDOM, 5, 0, new Rand(1));
    int[] seen = new int[5];
    for (int i = 0; i < 500; i++) {
      seen[a.next(-1)]++;
    }
    assertThat(Arrays.stream(seen).min().orElseThrow()).isGreaterThan(60);
  }

  @Test
  void hotspotHostsServeOnlyTheirHotspot() {
    // 3 hotspots, 7 hosts: hotspot 0 -> hosts 0,3,6; 1 -> 1,4; 2 -> 2,5.
    HostAssigner a = new HostAssigner(HostAssignment.HOTSPOT, 7, 3, new Rand(1));
    assertThat(assign(a, 0, 0, 0, 0, 1, 1, 1, 2)).containsExactly(0, 3, 6, 0, 1, 4, 1, 2);
  }

  @Test
  void fewerHostsThanHotspotsShareThem() {
    HostAssigner a = new HostAssigner(HostAssignment.HOTSPOT, 2, 4, new Rand(1));
    assertThat(assign(a, 0, 1, 2, 3, 3)).containsExactly(0, 1, 0, 1, 1);
  }

  @Test
  void hotspotAssignmentNeedsHotspots() {
    assertThatThrownBy(() -> new HostAssigner(HostAssignment.HOTSPOT, 4, 0, new Rand(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zipf");
    assertThat(HostAssignment.parse("round-robin")).isEqualTo(HostAssignment.ROUND_ROBIN);
    assertThatThrownBy(() -> HostAssignment.parse("rr")).hasMessageContaining("round-robin");
  }
}
