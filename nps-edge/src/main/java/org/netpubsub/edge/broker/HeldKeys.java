package org.netpubsub.edge.broker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The datagram keys an agent accepts when the coordinator hands them out (docs/security.md): the
 * keys of its last answer (the first signs), as the key file they come from lists them, and each
 * key it stopped listing for {@code grace} after the agent saw that. The coordinator's file is
 * rotated as any key file is (add the new key second, move it first, remove the old one); the grace
 * covers datagrams signed by agents that had not polled yet when the old key was removed. At most
 * {@link #MAX_RETIRED} retired keys are kept. Pure: the caller passes the time (nanoseconds of one
 * monotonic clock). Not thread-safe.
 */
final class HeldKeys {
  static final int MAX_RETIRED = 4;

  private record Retired(byte[] key, long since) {}

  private final long grace;
  private final Map<String, Retired> retired = new LinkedHashMap<>(); // by hex key, oldest first
  private List<byte[]> served = List.of();

  HeldKeys(long graceNanos) {
    this.grace = graceNanos;
  }

  /**
   * Takes the coordinator's answer {@code keys} (signing first) at {@code now}; returns whether the
   * signing key changed (false for the first answer).
   */
  boolean served(List<byte[]> keys, long now) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("datagram keys: none served");
    }
    boolean rotated = !served.isEmpty() && !Arrays.equals(served.get(0), keys.get(0));
    List<String> listed = keys.stream().map(HeldKeys::hex).toList();
    for (byte[] k : served) {
      String h = hex(k);
      if (!listed.contains(h)) {
        retired.putIfAbsent(h, new Retired(k, now));
      }
    }
    listed.forEach(retired::remove);
    served = keys.stream().map(byte[]::clone).toList();
    return rotated;
  }

  /** The keys to accept at {@code now}: the served ones (signing first), then those in grace. */
  List<byte[]> accepted(long now) {
    for (Iterator<Retired> it = retired.values().iterator(); it.hasNext(); ) {
      if (now - it.next().since() >= grace) {
        it.remove();
      }
    }
    while (retired.size() > MAX_RETIRED) {
      retired.remove(retired.keySet().iterator().next());
    }
    List<byte[]> out = new ArrayList<>(served.size() + retired.size());
    served.forEach(k -> out.add(k.clone()));
    retired.values().forEach(r -> out.add(r.key().clone()));
    return out;
  }

  private static String hex(byte[] k) {
    return HexFormat.of().formatHex(k);
  }
}
