package org.netpubsub.edge.overlay;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An edge broker's deadlines (§2.4.2): the command line's {@code --deadline} entries and those its
 * site's endpoints declare while it runs (DDS DEADLINE QoS), which admit topics to the direct path
 * ({@link DirectAdmission}) and report topics from other sites that fall silent too long ({@link
 * DeadlineMonitor}): a {@code deadline_missed} count, a warning and {@code onMiss}. Thread-safe.
 */
final class Deadlines {
  private static final Logger LOG = Logger.getLogger(Deadlines.class.getName());

  private final DeadlineTable table; // guarded by itself, with monitor
  private final DeadlineMonitor monitor;
  private final DirectAdmission admission;
  private final Counters counters;
  private final Consumer<DeadlineMonitor.Miss> onMiss;
  private volatile Set<String> remoteTopics = Set.of(); // with a deadline of other sites' readers

  Deadlines(
      Map<String, Long> filters,
      int maxDirect,
      Counters counters,
      Consumer<DeadlineMonitor.Miss> onMiss) {
    this.table = new DeadlineTable(filters, DeadlineMonitor.MAX_TOPICS);
    this.monitor = new DeadlineMonitor(table::received);
    this.admission = new DirectAdmission(this::sendsDirect, maxDirect, counters);
    this.counters = counters;
    this.onMiss = onMiss;
  }

  /**
   * {@code topic}'s local readers (or writers) now declare the deadline {@code millis}, or none
   * ({@code null}); counted ({@code deadline_topics_added}, {@code _removed}, {@code _refused} past
   * the cap) and logged.
   */
  void set(String topic, DeadlineTable.Side side, Long millis) {
    Optional<Long> before;
    Optional<Long> after;
    boolean taken;
    synchronized (table) {
      before = table.sent(topic);
      taken = table.set(topic, side, millis);
      after = table.sent(topic);
      monitor.changed(topic);
    }
    String whose = side == DeadlineTable.Side.READERS ? "readers" : "writers";
    if (!taken) {
      counters.add("deadline_topics_refused");
      LOG.warning("too many deadline topics: '" + topic + "' is not one (local " + whose + ")");
    } else if (!before.equals(after)) {
      counters.add(
          before.isEmpty()
              ? "deadline_topics_added"
              : after.isEmpty() ? "deadline_topics_removed" : "deadline_topics_changed");
      LOG.info(
          "'"
              + topic
              + "' "
              + after.map(d -> "is a deadline topic: " + d + " ms").orElse("is no deadline topic")
              + " (local "
              + whose
              + ": "
              + (millis == null ? "none" : millis + " ms")
              + ")");
    }
  }

  private boolean sendsDirect(String topic) {
    if (remoteTopics.contains(topic)) {
      return true;
    }
    synchronized (table) {
      return table.sent(topic).isPresent();
    }
  }

  /**
   * The deadlines other sites' readers request, by topic ({@link RemoteDeadlines} of the current
   * view): they too send a topic this edge publishes on the direct path.
   */
  void remote(Map<String, Long> byTopic) {
    remoteTopics = Set.copyOf(byTopic.keySet()); // any deadline sends direct: its value is theirs
  }

  /** The deadline this site's readers (and --deadline) hold {@code topic}'s arrivals to, if any. */
  Optional<Long> received(String topic) {
    synchronized (table) {
      return table.received(topic);
    }
  }

  /** Whether {@code topic} takes the direct path; decided at its first message (any thread). */
  boolean admit(String topic) {
    return admission.admit(topic);
  }

  boolean admitted(String topic) {
    return admission.admitted(topic);
  }

  /** A message of {@code topic} arrived from another site. */
  void observe(String topic, long now) {
    Optional<DeadlineMonitor.Miss> miss;
    synchronized (table) {
      miss = monitor.observe(topic, now);
    }
    miss.ifPresent(this::missed);
  }

  /** Reports the topics silent past their deadline now. */
  void overdue(long now) {
    List<DeadlineMonitor.Miss> late;
    synchronized (table) {
      late = monitor.overdue(now);
    }
    late.forEach(this::missed);
  }

  private void missed(DeadlineMonitor.Miss m) {
    counters.add("deadline_missed");
    LOG.warning(
        "deadline missed on '"
            + m.topic()
            + "': silent "
            + m.silentMillis()
            + " ms, deadline "
            + m.deadlineMillis()
            + " ms");
    try {
      onMiss.accept(m);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "deadline listener", e);
    }
  }
}
