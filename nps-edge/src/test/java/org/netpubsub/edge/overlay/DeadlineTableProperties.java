package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * {@link DeadlineTable} against a naive twin that keeps every change it was told and answers by
 * replaying them all; and the run-time deadlines in {@link DirectAdmission} and {@link
 * DeadlineMonitor}.
 */
class DeadlineTableProperties {
  private static final List<String> TOPICS = List.of("a/1", "a/2", "b/1", "dds/x/T/h", "c");
  private static final int CAP = 3;

  record Op(String topic, DeadlineTable.Side side, Long millis) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Long> millis = Arbitraries.longs().between(1, 500).injectNull(0.4);
    return Combinators.combine(
            Arbitraries.of(TOPICS), Arbitraries.of(DeadlineTable.Side.values()), millis)
        .as(Op::new)
        .list()
        .ofMaxSize(40);
  }

  @Provide
  Arbitrary<Map<String, Long>> filters() {
    return Arbitraries.maps(
            Arbitraries.of("a/#", "a/1", "+/1", "c", "x"), Arbitraries.longs().between(1, 500))
        .ofMaxSize(3);
  }

  /** The naive answer: replay every change from the start (refusing topics past the cap). */
  private static Optional<Long> naive(
      Map<String, Long> filters, List<Op> log, String topic, boolean withWriters) {
    List<Long> candidates = new ArrayList<>();
    filters.forEach(
        (f, d) -> {
          if (TopicFilters.matches(f, topic)) {
            candidates.add(d);
          }
        });
    for (DeadlineTable.Side side : DeadlineTable.Side.values()) {
      if (side == DeadlineTable.Side.WRITERS && !withWriters) {
        continue;
      }
      Map<String, Long> held = new HashMap<>();
      for (Op o : log) {
        if (o.side() != side) {
          continue;
        }
        if (o.millis() == null) {
          held.remove(o.topic());
        } else if (held.containsKey(o.topic()) || held.size() < CAP) {
          held.put(o.topic(), o.millis());
        }
      }
      if (held.containsKey(topic)) {
        candidates.add(held.get(topic));
      }
    }
    return candidates.stream().min(Long::compare);
  }

  @Property(tries = 200)
  void answersAsTheReplayOfEveryChange(
      @ForAll("filters") Map<String, Long> filters, @ForAll("ops") List<Op> ops) {
    DeadlineTable t = new DeadlineTable(filters, CAP);
    List<Op> log = new ArrayList<>();
    for (Op o : ops) {
      t.set(o.topic(), o.side(), o.millis());
      log.add(o);
      for (String topic : TOPICS) {
        assertThat(t.received(topic)).isEqualTo(naive(filters, log, topic, false));
        assertThat(t.sent(topic)).isEqualTo(naive(filters, log, topic, true));
      }
    }
  }

  @Example
  void aTopicPastTheCapIsRefused() {
    DeadlineTable t = new DeadlineTable(Map.of(), 1);
    assertThat(t.set("a", DeadlineTable.Side.READERS, 10L)).isTrue();
    assertThat(t.set("b", DeadlineTable.Side.READERS, 10L)).isFalse();
    assertThat(t.set("b", DeadlineTable.Side.WRITERS, 10L)).isTrue(); // per side
    assertThat(t.set("a", DeadlineTable.Side.READERS, 5L)).isTrue(); // a held one changes
    assertThat(t.received("b")).isEmpty();
    assertThat(t.sent("b")).contains(10L);
  }

  @Example
  void aDeadlineAddedAtRunTimeAdmitsToTheDirectPathAndItsRemovalReleases() {
    DeadlineTable t = new DeadlineTable(Map.of(), 8);
    Counters c = new Counters();
    DirectAdmission d = new DirectAdmission(topic -> t.sent(topic).isPresent(), 1, c);
    assertThat(d.admit("k")).isFalse();
    t.set("k", DeadlineTable.Side.READERS, 100L);
    t.set("j", DeadlineTable.Side.WRITERS, 100L);
    assertThat(d.admit("k")).isTrue();
    assertThat(d.admit("j")).isFalse(); // one place only
    t.set("k", DeadlineTable.Side.READERS, null);
    assertThat(d.admit("k")).isFalse();
    assertThat(d.admitted("k")).isFalse();
    assertThat(d.admit("j")).isFalse(); // refused stays refused while it keeps its deadline
    t.set("j", DeadlineTable.Side.WRITERS, null);
    assertThat(d.admit("j")).isFalse();
    t.set("j", DeadlineTable.Side.WRITERS, 50L);
    assertThat(d.admit("j")).isTrue(); // decided anew: the place is free
    assertThat(c.snapshot())
        .containsEntry("direct_admitted", 2L)
        .containsEntry("direct_refused", 1L)
        .containsEntry("direct_released", 1L);
  }

  @Example
  void theMonitorFollowsARunTimeDeadline() {
    DeadlineTable t = new DeadlineTable(Map.of(), 8);
    DeadlineMonitor m = new DeadlineMonitor(t::received);
    assertThat(m.observe("k", 0)).isEmpty(); // no deadline yet: not watched
    assertThat(m.overdue(10_000)).isEmpty();
    t.set("k", DeadlineTable.Side.READERS, 100L);
    m.changed("k");
    assertThat(m.observe("k", 10_000)).isEmpty(); // watched from now
    assertThat(m.overdue(10_101)).containsExactly(new DeadlineMonitor.Miss("k", 100, 101));
    assertThat(m.observe("k", 10_200)).isEmpty();
    t.set("k", DeadlineTable.Side.READERS, 50L);
    m.changed("k"); // the tighter one applies to the silence under way
    assertThat(m.overdue(10_251)).containsExactly(new DeadlineMonitor.Miss("k", 50, 51));
    assertThat(m.observe("k", 10_300)).isEmpty();
    t.set("k", DeadlineTable.Side.WRITERS, 10L); // writers' deadlines are not watched
    t.set("k", DeadlineTable.Side.READERS, null);
    m.changed("k");
    assertThat(m.overdue(99_999)).isEmpty();
  }
}
