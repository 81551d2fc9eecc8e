package org.netpubsub.edge.broker;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sending half of reliable mode: the last {@code capacity} datagrams this agent sent (all
 * topics together, the oldest evicted), each with the targets it went to, so that a NACK is
 * answered with the datagram, "skip" (the asker was not a target: it subscribed later, or the
 * number was a retained message sprayed to every edge) or "gone" (evicted). And the tail
 * heartbeats: a receiver notices a loss only when a later number arrives, so after a topic's last
 * message its number is announced to the same targets {@code heartbeatMillis}, 2×, 4×… later,
 * {@code heartbeats} times. Pure, not thread-safe; takes {@code now} in milliseconds.
 */
final class RetransmitBuffer {
  /** What a NACK for one number gets. */
  sealed interface Answer {}

  /** Send {@code datagram} again. */
  record Resend(byte[] datagram) implements Answer {}

  /** The asker was not among the number's targets. */
  record Skip() implements Answer {}

  /** The number is no longer buffered (or never existed). */
  record Gone() implements Answer {}

  /** A tail heartbeat due now: {@code topic}'s last number {@code seq}, to its targets. */
  record Heartbeat(String topic, long seq, Set<InetSocketAddress> targets) {}

  private record Key(String topic, long seq) {}

  /** {@code askers} null: any asker was a target (network mode: the route names a group). */
  private record Sent(byte[] datagram, Set<InetSocketAddress> askers) {}

  private static final class Tail {
    long seq;
    Set<InetSocketAddress> targets;
    long at;
    int sent;
  }

  private final int capacity;
  private final long heartbeatMillis;
  private final int heartbeats;
  private final LinkedHashMap<Key, Sent> sent = new LinkedHashMap<>();
  private final Map<String, Tail> tails = new HashMap<>();

  RetransmitBuffer(int capacity, long heartbeatMillis, int heartbeats) {
    if (capacity < 1) {
      throw new IllegalArgumentException("the retransmit buffer needs room for one message");
    }
    this.capacity = capacity;
    this.heartbeatMillis = heartbeatMillis;
    this.heartbeats = heartbeats;
  }

  /**
   * Records {@code datagram}, number {@code seq} of {@code topic}, sent to {@code targets}; {@code
   * group}: the target is a network group, whose members the agent does not know (any asker may
   * have been one).
   */
  void put(
      String topic,
      long seq,
      byte[] datagram,
      Set<InetSocketAddress> targets,
      boolean group,
      long now) {
    sent.put(new Key(topic, seq), new Sent(datagram, group ? null : targets));
    if (sent.size() > capacity) {
      Iterator<Key> it = sent.keySet().iterator();
      it.next();
      it.remove();
    }
    Tail t = tails.computeIfAbsent(topic, k -> new Tail());
    t.seq = seq;
    t.targets = targets;
    t.at = now;
    t.sent = 0;
  }

  /**
   * The answer to {@code asker}'s NACK for {@code topic}'s number {@code seq}; {@code before}: the
   * number precedes the first one the asker saw, so it is resent only if the asker was surely a
   * target (for a group, it may have joined since: skipped, never a message older than its
   * subscription).
   */
  Answer answer(String topic, long seq, InetSocketAddress asker, boolean before) {
    Sent s = sent.get(new Key(topic, seq));
    if (s == null) {
      return new Gone();
    }
    boolean target = s.askers == null ? !before : s.askers.contains(asker);
    return target ? new Resend(s.datagram) : new Skip();
  }

  /** The tail heartbeats due now. */
  List<Heartbeat> heartbeats(long now) {
    List<Heartbeat> out = new ArrayList<>();
    for (Iterator<Map.Entry<String, Tail>> it = tails.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Tail> e = it.next();
      Tail t = e.getValue();
      if (now - t.at < heartbeatMillis << t.sent) {
        continue;
      }
      out.add(new Heartbeat(e.getKey(), t.seq, t.targets));
      if (++t.sent >= heartbeats) {
        it.remove();
      }
    }
    return out;
  }

  /** Topics whose heartbeats are not all sent yet. */
  int pendingTails() {
    return tails.size();
  }

  int size() {
    return sent.size();
  }
}
