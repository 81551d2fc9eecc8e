package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.List;

/**
 * Which of the key znode's keys a party accepts, and when that changes (docs/security.md): the
 * current key (signing, first) and the next one always; the previous one only until {@code grace}
 * after this party first saw it as the previous key. The grace runs on each party's own clock, from
 * when it saw the rotation, so parties need no common clock. Not thread-safe; pure: the caller
 * passes the time, in nanoseconds of one monotonic clock.
 */
final class KeyGrace {
  private long previousId; // 0: none seen yet
  private long previousSince;

  /** The keys to accept at {@code now} under {@code keys}: the signing one first. */
  List<byte[]> accepted(DatagramKeys keys, long now) {
    List<byte[]> out = new ArrayList<>(3);
    out.add(keys.current().key());
    if (keys.next() != null) {
      out.add(keys.next().key());
    }
    if (keys.previous() != null && now - since(keys, now) < keys.grace().toNanos()) {
      out.add(keys.previous().key());
    }
    return out;
  }

  /**
   * Nanoseconds from {@code now} until {@link #accepted} drops the previous key, or -1 when nothing
   * will change without a new znode.
   */
  long untilChange(DatagramKeys keys, long now) {
    if (keys.previous() == null) {
      return -1;
    }
    long left = since(keys, now) + keys.grace().toNanos() - now;
    return left > 0 ? left : -1;
  }

  private long since(DatagramKeys keys, long now) {
    if (keys.previous().id() != previousId) {
      previousId = keys.previous().id();
      previousSince = now;
    }
    return previousSince;
  }
}
