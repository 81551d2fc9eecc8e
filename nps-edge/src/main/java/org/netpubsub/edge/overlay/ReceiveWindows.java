package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A receiving edge's view of each (origin, topic) sequence: drops duplicates (a retransmission, or
 * the second copy of a multi-path topic), and notes gaps to ask the origin for (NACK). The first
 * message of a sequence starts it; a jump of more than {@code maxGap} (a restarted origin, or more
 * than its buffer could hold) restarts it without NACKs. Numbers below the first one seen (up to
 * {@code maxGap} below) are delivered once each: the history sent to a late joiner. Missing numbers
 * are asked for again {@code retryMillis} after the first ask, each later ask waiting twice as long
 * as the one before up to {@code maxRetryMillis} (back-off: on a loaded machine a repair can take
 * longer than {@code retryMillis} to come back, and asking again at a fixed short interval answered
 * each missing number many times over, a storm of duplicates in front of the repairs), up to {@code
 * tries} asks; a number is given up as lost one interval after its last ask ({@link
 * #giveUpMillis}). While a window's missing numbers keep arriving (one came within {@code
 * retryMillis}) none of them is asked for again or given up: the answers are still coming. A
 * message of another session of the origin (a restart) starts the sequence again. Windows are
 * remote input: at most {@code maxWindows} are kept (the least recently used goes first), and one
 * without news for {@code idleMillis} and nothing missing is forgotten. Pure, not thread-safe.
 */
public final class ReceiveWindows {
  /** What to do with an arriving message. */
  public enum Verdict {
    DELIVER,
    RECOVERED,
    DUPLICATE
  }

  /** Ask {@code origin} for {@code topic}'s messages {@code from}..{@code to}. */
  public record Nack(String origin, String topic, long from, long to) {}

  private record Key(String origin, String topic) {}

  private static final class Window {
    long session;
    long seen; // when its last message arrived
    long base; // the first number seen
    final java.util.TreeSet<Long> history = new java.util.TreeSet<>(); // delivered below base
    long max;
    long repaired = Long.MIN_VALUE / 2; // when a missing number last arrived
    final TreeMap<Long, long[]> missing = new TreeMap<>(); // seq -> {last ask, tries}
  }

  /** Defaults of {@link #ReceiveWindows(int, long, int)}: windows kept, and for how long idle. */
  public static final int MAX_WINDOWS = 16_384;

  public static final long IDLE_MILLIS = 10 * 60_000;

  private final int maxGap;
  private final long retryMillis;
  private final long maxRetryMillis;
  private final int tries;
  private final int maxWindows;
  private final long idleMillis;
  private final LinkedHashMap<Key, Window> windows = new LinkedHashMap<>(16, 0.75f, true);
  private long lost;
  private long evicted;

  /** Asks again every {@code retryMillis}, without back-off. */
  public ReceiveWindows(int maxGap, long retryMillis, int tries) {
    this(maxGap, retryMillis, retryMillis, tries, MAX_WINDOWS, IDLE_MILLIS);
  }

  /** Asks again after {@code retryMillis}, doubling up to {@code maxRetryMillis}. */
  public ReceiveWindows(int maxGap, long retryMillis, long maxRetryMillis, int tries) {
    this(maxGap, retryMillis, maxRetryMillis, tries, MAX_WINDOWS, IDLE_MILLIS);
  }

  public ReceiveWindows(int maxGap, long retryMillis, int tries, int maxWindows, long idleMillis) {
    this(maxGap, retryMillis, retryMillis, tries, maxWindows, idleMillis);
  }

  public ReceiveWindows(
      int maxGap,
      long retryMillis,
      long maxRetryMillis,
      int tries,
      int maxWindows,
      long idleMillis) {
    if (maxWindows < 1 || idleMillis < 1) {
      throw new IllegalArgumentException("maxWindows and idleMillis must be positive");
    }
    if (retryMillis < 1 || maxRetryMillis < retryMillis || tries < 1) {
      throw new IllegalArgumentException(
          "retryMillis and tries must be positive, maxRetryMillis >= retryMillis");
    }
    this.maxGap = maxGap;
    this.retryMillis = retryMillis;
    this.maxRetryMillis = maxRetryMillis;
    this.tries = tries;
    this.maxWindows = maxWindows;
    this.idleMillis = idleMillis;
  }

  /** Accepts {@code seq} of an unsessioned origin; new gaps are appended to {@code nacks}. */
  public Verdict accept(String origin, String topic, long seq, long now, List<Nack> nacks) {
    return accept(origin, topic, 0, seq, now, nacks);
  }

  /**
   * Accepts {@code seq} of {@code origin}'s {@code session}; gaps are appended to {@code nacks}.
   */
  public Verdict accept(
      String origin, String topic, long session, long seq, long now, List<Nack> nacks) {
    Key key = new Key(origin, topic);
    Window w = windows.get(key);
    if (w == null || w.session != session) {
      if (w == null && windows.size() >= maxWindows) {
        windows.pollFirstEntry(); // the least recently used
        evicted++;
      }
      w = new Window();
      w.session = session;
      w.seen = now;
      w.base = seq;
      w.max = seq;
      windows.put(key, w);
      return Verdict.DELIVER;
    }
    w.seen = now;
    if (seq > w.max) {
      long gap = seq - w.max - 1;
      if (gap > maxGap) {
        w.missing.clear(); // restarted origin, or unrecoverable: start again here
        w.history.clear();
        w.base = seq;
      } else if (gap > 0) {
        for (long s = w.max + 1; s < seq; s++) {
          w.missing.put(s, new long[] {now, 1});
        }
        nacks.add(new Nack(origin, topic, w.max + 1, seq - 1));
      }
      w.max = seq;
      trim(w);
      return Verdict.DELIVER;
    }
    if (w.missing.remove(seq) != null) {
      w.repaired = now;
      return Verdict.RECOVERED;
    }
    // older than the first message seen: history a late joiner is sent (durability), once each
    if (seq < w.base && w.base - seq <= maxGap && w.history.add(seq)) {
      return Verdict.RECOVERED;
    }
    return Verdict.DUPLICATE;
  }

  /**
   * NACKs to repeat now; numbers asked for {@code tries} times are given up, windows idle too long
   * with nothing missing forgotten.
   */
  public List<Nack> due(long now) {
    List<Nack> out = new ArrayList<>();
    windows
        .values()
        .removeIf(w -> w.missing.isEmpty() && now - w.seen > idleMillis); // no access: order kept
    for (Map.Entry<Key, Window> e : windows.entrySet()) {
      if (now - e.getValue().repaired < retryMillis) {
        // repairs of this window are still arriving: the answers to the last asks are on their
        // way (a failover's gap of thousands comes back over seconds on a loaded machine), and
        // asking again would have them all sent once more; neither asked nor given up meanwhile
        continue;
      }
      Iterator<Map.Entry<Long, long[]>> it = e.getValue().missing.entrySet().iterator();
      long runFrom = -1;
      long runTo = -1;
      while (it.hasNext()) {
        Map.Entry<Long, long[]> m = it.next();
        long[] s = m.getValue();
        if (now - s[0] < interval(retryMillis, maxRetryMillis, s[1])) {
          continue;
        }
        if (s[1] >= tries) {
          it.remove();
          lost++;
          continue;
        }
        s[0] = now;
        s[1]++;
        long seq = m.getKey();
        if (runFrom >= 0 && seq == runTo + 1) {
          runTo = seq;
        } else {
          if (runFrom >= 0) {
            out.add(new Nack(e.getKey().origin(), e.getKey().topic(), runFrom, runTo));
          }
          runFrom = seq;
          runTo = seq;
        }
      }
      if (runFrom >= 0) {
        out.add(new Nack(e.getKey().origin(), e.getKey().topic(), runFrom, runTo));
      }
    }
    return out;
  }

  /** How long after an ask with {@code tries} asks made so far the next one is due. */
  static long interval(long retryMillis, long maxRetryMillis, long tries) {
    long shift = Math.min(tries - 1, 30);
    return Math.min(retryMillis << shift, maxRetryMillis);
  }

  /**
   * How long after a number was first found missing it is given up (on time: the asks repeat no
   * sooner than this): the sum of the intervals after each of the {@code tries} asks.
   */
  public static long giveUpMillis(long retryMillis, long maxRetryMillis, int tries) {
    long total = 0;
    for (int t = 1; t <= tries; t++) {
      total += interval(retryMillis, maxRetryMillis, t);
    }
    return total;
  }

  /** Numbers given up after every retry. */
  public long lost() {
    return lost;
  }

  /** Windows forgotten to make room for new ones. */
  public long evicted() {
    return evicted;
  }

  /** Windows held now. */
  public int size() {
    return windows.size();
  }

  public int missing() {
    return windows.values().stream().mapToInt(w -> w.missing.size()).sum();
  }

  private void trim(Window w) {
    while (w.missing.size() > maxGap) {
      w.missing.pollFirstEntry();
      lost++;
    }
  }
}
