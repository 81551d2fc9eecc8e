package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which keys a party accepts, and when that changes (docs/security.md): the key znode's current key
 * (signing, first) and next key always, and every key it has seen stop signing (the znode's
 * previous key, or a current key a rotation replaced) until {@code grace} after it first saw that.
 * So a second rotation within one grace period does not cut the grace of the key before: datagrams
 * under it may still be queued in some receiver. The grace runs on each party's own clock. At most
 * {@link #MAX_RETIRED} retired keys are kept. Not thread-safe; pure: the caller passes the time, in
 * nanoseconds of one monotonic clock.
 */
final class KeyGrace {
  static final int MAX_RETIRED = 4;

  private record Retired(byte[] key, long since) {}

  private final Map<Long, Retired> retired = new LinkedHashMap<>(); // oldest first
  private DatagramKeys.Key lastCurrent;
  private long forgotten; // ids up to this one have ended their grace: never held again

  /** The keys to accept at {@code now} under {@code keys}: the signing one first. */
  List<byte[]> accepted(DatagramKeys keys, long now) {
    note(keys, now);
    List<byte[]> out = new ArrayList<>(3 + retired.size());
    out.add(keys.current().key());
    if (keys.next() != null) {
      out.add(keys.next().key());
    }
    for (Retired r : retired.values()) {
      out.add(r.key());
    }
    return out;
  }

  /**
   * Nanoseconds from {@code now} until {@link #accepted} drops a retired key, or -1 when nothing
   * will change without a new znode.
   */
  long untilChange(DatagramKeys keys, long now) {
    note(keys, now);
    long grace = keys.grace().toNanos();
    long soonest = -1;
    for (Retired r : retired.values()) {
      long left = r.since() + grace - now;
      soonest = soonest < 0 ? left : Math.min(soonest, left);
    }
    return soonest;
  }

  private void note(DatagramKeys keys, long now) {
    if (lastCurrent != null && lastCurrent.id() != keys.current().id()) {
      retire(lastCurrent, now);
    }
    if (keys.previous() != null) {
      retire(keys.previous(), now);
    }
    lastCurrent = keys.current();
    retired.remove(keys.current().id());
    if (keys.next() != null) {
      retired.remove(keys.next().id());
    }
    long grace = keys.grace().toNanos();
    for (Iterator<Map.Entry<Long, Retired>> it = retired.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, Retired> e = it.next();
      if (now - e.getValue().since() >= grace) {
        forgotten = Math.max(forgotten, e.getKey());
        it.remove();
      }
    }
    while (retired.size() > MAX_RETIRED) {
      long oldest = retired.keySet().iterator().next();
      forgotten = Math.max(forgotten, oldest);
      retired.remove(oldest);
    }
  }

  private void retire(DatagramKeys.Key k, long now) {
    if (k.id() > forgotten) {
      retired.putIfAbsent(k.id(), new Retired(k.key(), now));
    }
  }
}
