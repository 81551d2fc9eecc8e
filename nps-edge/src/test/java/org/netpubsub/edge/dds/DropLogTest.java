package org.netpubsub.edge.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** One log line per topic for dropped samples, then at most one per interval with a count. */
class DropLogTest {
  @Test
  void theFirstDropOfATopicIsLoggedThenOneLinePerIntervalCountingTheRest() {
    DropLog log = new DropLog(60_000, 16);
    assertThat(log.dropped("dds_malformed", "readings", 0))
        .contains(new DropLog.Line("dds_malformed", "readings", 1));
    for (int i = 1; i <= 1000; i++) {
      assertThat(log.dropped("dds_malformed", "readings", i)).isEmpty(); // a flood: no lines
    }
    assertThat(log.dropped("dds_malformed", "other", 2000)).isPresent(); // another topic: its own
    assertThat(log.dropped("dds_unknown_type", "readings", 2000)).isPresent(); // another reason
    assertThat(log.dropped("dds_malformed", "readings", 60_000))
        .contains(new DropLog.Line("dds_malformed", "readings", 1001));
  }

  @Test
  void onlyTheMostRecentlyDroppedTopicsAreRemembered() {
    DropLog log = new DropLog(60_000, 2);
    log.dropped("r", "a", 0);
    log.dropped("r", "b", 1);
    log.dropped("r", "c", 2); // forgets a
    assertThat(log.dropped("r", "c", 3)).isEmpty();
    assertThat(log.dropped("r", "a", 4)).contains(new DropLog.Line("r", "a", 1));
  }

  /** Against a naive count: lines of a topic are an interval apart and account for every drop. */
  @Property(tries = 300)
  void linesAreAnIntervalApartAndCountEveryDrop(@ForAll long seed) {
    Random r = new Random(seed);
    long interval = 1 + r.nextInt(100);
    DropLog log = new DropLog(interval, 8);
    Map<String, Long> drops = new HashMap<>();
    Map<String, Long> logged = new HashMap<>();
    Map<String, Long> lastLine = new HashMap<>();
    long now = 0;
    for (int i = 0; i < 500; i++) {
      now += r.nextInt(20);
      String topic = "t" + r.nextInt(5); // fewer than the 8 remembered: none is forgotten
      drops.merge(topic, 1L, Long::sum);
      var line = log.dropped("dds_malformed", topic, now);
      if (line.isPresent()) {
        Long last = lastLine.put(topic, now);
        assertThat(last == null || now - last >= interval).isTrue();
        logged.merge(topic, line.get().count(), Long::sum);
      }
    }
    for (String topic : drops.keySet()) {
      long pending = log.dropped("dds_malformed", topic, now + interval).orElseThrow().count() - 1;
      assertThat(logged.get(topic) + pending).isEqualTo(drops.get(topic));
    }
  }
}
