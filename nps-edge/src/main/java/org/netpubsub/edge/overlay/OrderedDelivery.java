package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.netpubsub.edge.broker.EdgeMessage;

/**
 * A receiving edge's {@link HoldBack} in front of its site: the receiver thread offers arriving
 * messages, the worker releases what waited too long, and each hands what is due to {@code publish}
 * while holding {@code lock}, so the two threads never publish one sequence's messages out of
 * order. The worker only tries the lock: while the receiver publishes (a DDS child's full history
 * can block its write for seconds) the worker goes on with its NACKs, probes and entries and
 * releases at its next tick. The hold-back's counts go to the edge's counters as {@code reorder_*}.
 */
final class OrderedDelivery {
  /**
   * The receiving edge's NACKs ({@link ReceiveWindows} in {@link EdgeBroker}): the first repeat
   * after 150 ms, then 300, 600 and 1 000 ms apart, 12 asks in all. Under load (issue 25's stream
   * at load 35) a repair took longer than 150 ms to come back, and the fixed 150 ms repeats (20 in
   * 3 s) had the origin send each missing number many times (38 835 retransmissions for 5 685
   * NACKs, more duplicates at the receivers than the stream itself), which delayed the repairs
   * further, past the 3 s give-up: repairs arrived and were dropped as too late.
   */
  static final long RETRY_MILLIS = 150;

  static final long MAX_RETRY_MILLIS = 1_000;
  static final int TRIES = 12;

  /**
   * How long a gap may hold later messages: the time {@link ReceiveWindows} keeps asking for it
   * (10.05 s); a repair later than that is not asked for. For a fast stream the hold-back's bound
   * per sequence ({@link EdgeBrokerConfig#MAX_BUFFER} messages, the largest send buffer: what the
   * origin can still repair) ends it sooner.
   */
  static final long HOLD_MILLIS =
      ReceiveWindows.giveUpMillis(RETRY_MILLIS, MAX_RETRY_MILLIS, TRIES);

  private final HoldBack<EdgeMessage> holdBack;
  private final Consumer<EdgeMessage> publish;
  private final Counters counters;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<EdgeMessage> out = new ArrayList<>(); // guarded by lock, as the fields below
  private long lost;
  private long late;
  private long tooLate;
  private long released;
  private long evicted;
  private long duplicates;

  OrderedDelivery(Consumer<EdgeMessage> publish, Counters counters) {
    // per sequence at most the origin's largest send buffer (a longer gap cannot be repaired) and
    // 8 MiB; 64 MiB and 4 096 sequences in all; forgotten after 10 idle minutes
    this(
        new HoldBack<>(
            HOLD_MILLIS,
            EdgeBrokerConfig.MAX_BUFFER,
            EdgeBrokerConfig.MAX_BUFFER,
            8L << 20,
            64L << 20,
            4096,
            ReceiveWindows.IDLE_MILLIS),
        publish,
        counters);
  }

  OrderedDelivery(
      HoldBack<EdgeMessage> holdBack, Consumer<EdgeMessage> publish, Counters counters) {
    this.holdBack = holdBack;
    this.publish = publish;
    this.counters = counters;
  }

  /** One message {@link ReceiveWindows} accepted, of the origin's {@code session}. */
  void offer(EdgeMessage m, long session, long now) {
    lock.lock();
    try {
      holdBack.offer(
          m.origin(),
          m.topic(),
          session,
          m.sequence(),
          m.qos() >= 1,
          m,
          m.payload().length + m.topic().length(),
          now,
          out);
      publishOut();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Releases what waited past its bound (the worker, every 50 ms); false if the receiver was
   * publishing, and nothing was done.
   */
  boolean due(long now) {
    if (!lock.tryLock()) {
      return false;
    }
    try {
      holdBack.due(now, out);
      publishOut();
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void publishOut() {
    try {
      for (EdgeMessage m : out) {
        publish.accept(m);
      }
    } finally {
      out.clear();
    }
    lost = report("reorder_lost", holdBack.lost(), lost);
    late = report("reorder_history", holdBack.late(), late);
    tooLate = report("dropped.reorder_too_late", holdBack.tooLate(), tooLate);
    released = report("reorder_released_past_gap", holdBack.released(), released);
    evicted = report("reorder_evicted", holdBack.evicted(), evicted);
    duplicates = report("dropped.reorder_duplicate", holdBack.duplicates(), duplicates);
  }

  private long report(String name, long now, long before) {
    if (now > before) {
      counters.add(name, now - before);
    }
    return now;
  }
}
