package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * An own-key agent's keys from the coordinator ({@code --own-key-only --coordinator-keys},
 * docs/security-datagrams.md, "Per-agent keys from the coordinator"): its own key, its senders'
 * keys and the revoked edges, fetched once before the first datagram ({@link #fetch}: one line if
 * that fails), then refreshed on a thread of its own ({@link #start}) and handed to the agent's
 * {@link AgentKeys} (a volatile swap each: the receive loop never waits for a refresh). A failed
 * refresh keeps the last good set and backs off ({@link #delay}: doubling from the interval up to
 * {@link #MAX_BACKOFF} or the interval if longer); the first answer after it resets the interval.
 * Its own keys go through {@link HeldKeys} as a deployment-key agent's do (a key the coordinator
 * stops listing stays accepted for one interval). A datagram in a name it holds no key of may ask
 * for one refresh early ({@link #soon}, at most one per {@link KeyRefresh#EARLY_EVERY}). The loop
 * and counters are {@link KeyRefresh}'s, shared with {@link KeyPoller}; this is its answer kind.
 * Keys are never logged or counted, only how many.
 */
final class OwnKeyPoller implements Closeable {
  /** The longest wait between refreshes while the coordinator fails (unless the interval is). */
  static final Duration MAX_BACKOFF = KeyRefresh.MAX_BACKOFF;

  /** One answer: the edge's own keys (the first signing), its senders' by name, the revoked. */
  record Served(List<byte[]> own, Map<String, List<byte[]>> senders, Set<String> revoked) {}

  /** Where the answers come from: the coordinator, or a test's fake. */
  interface Source {
    Served fetch() throws CoordinatorClient.CoordinatorException;
  }

  private static final KeyRefresh.Wording WORDS =
      new KeyRefresh.Wording("own keys", "refresh failed, keeping the last good set");

  /** The answer kind; its fields are guarded by the refresh's lock once started. */
  private final class Answers implements KeyRefresh.Kind<Served> {
    private AgentKeys target; // set by start
    private Map<String, List<String>> appliedSenders; // what target holds, as hex

    @Override
    public void check(Served s) {
      checked(s);
    }

    @Override
    public List<byte[]> keys(Served s) {
      return s.own();
    }

    @Override
    public void apply(Served s) {
      if (target != null) {
        Map<String, List<String>> hex = hex(s);
        if (!hex.equals(appliedSenders)) { // HMAC states are made only when something changed
          target.senders(senderAuths(s));
          appliedSenders = hex;
        }
        target.revokedByCoordinator(s.revoked());
      }
      last = s;
    }

    @Override
    public String rotated(Served s) {
      return "the coordinator rotated this agent's signing key";
    }
  }

  private final Answers answers = new Answers();
  private final KeyRefresh<Served> refresh;
  private volatile Served last; // the last good answer (read by counters() without the lock)

  private OwnKeyPoller(Source source, LongSupplier clock, Duration interval, Served first) {
    this.last = first;
    this.refresh = new KeyRefresh<>(source::fetch, answers, WORDS, clock, interval, true, first);
  }

  /**
   * The first fetch, before the agent sends anything; an {@link IOException} with one clear line if
   * the coordinator is unreachable, refuses ({@code 401}, {@code 403}: not this edge's principal,
   * or the edge is revoked; {@code 404}) or answers unusable keys.
   */
  static OwnKeyPoller fetch(Source source, Duration interval, LongSupplier clock)
      throws IOException {
    try {
      return new OwnKeyPoller(source, clock, interval, source.fetch());
    } catch (CoordinatorClient.CoordinatorException | IllegalArgumentException e) {
      throw new IOException(
          "cannot fetch the agent's own keys from the coordinator: " + e.getMessage());
    }
  }

  /** The agent's own key (it seals with it); its keys change as refreshes say. */
  DatagramAuth auth() {
    return refresh.auth();
  }

  /** The senders' keys of the first answer. */
  Map<String, DatagramAuth> senders() {
    return senderAuths(last);
  }

  /** The revoked edges of the first answer. */
  Set<String> revoked() {
    return last.revoked();
  }

  /** {@link KeyRefresh#delay}: the wait before the next refresh after {@code failed} failures. */
  static long delay(long intervalNanos, int failed) {
    return KeyRefresh.delay(intervalNanos, failed);
  }

  /** Refreshes into {@code keys} on a daemon thread until {@link #close}. */
  void start(String edge, AgentKeys keys) {
    synchronized (refresh) { // the lock poll() holds: apply() sees target set
      answers.target = keys;
      answers.appliedSenders = hex(last);
    }
    refresh.start("nps-agent-own-keys-" + edge);
  }

  /** One refresh: asks the coordinator and applies the answer, or keeps the last good set. */
  void poll() {
    refresh.poll();
  }

  /**
   * One refresh ahead of time on the refresh thread (never waits), for a datagram in a name this
   * agent holds no key of (a sender that registered since the last refresh): at most one per {@link
   * KeyRefresh#EARLY_EVERY} whatever the remote sends, none while refreshes fail. Returns whether
   * one was asked for.
   */
  boolean soon() {
    return refresh.soon();
  }

  /** Checks every key and the bounds before anything is replaced. */
  private static void checked(Served s) {
    DatagramAuth.of(s.own());
    if (s.senders().size() > AgentKeys.MAX_SENDERS || s.revoked().size() > AgentKeys.MAX_SENDERS) {
      throw new IllegalArgumentException("more than " + AgentKeys.MAX_SENDERS + " edges");
    }
    s.senders().values().forEach(DatagramAuth::of);
  }

  private static Map<String, List<String>> hex(Served s) {
    Map<String, List<String>> m = new HashMap<>();
    s.senders()
        .forEach((e, k) -> m.put(e, k.stream().map(java.util.HexFormat.of()::formatHex).toList()));
    return m;
  }

  private static Map<String, DatagramAuth> senderAuths(Served s) {
    Map<String, DatagramAuth> m = new HashMap<>();
    s.senders().forEach((e, k) -> m.put(e, DatagramAuth.of(k)));
    return m;
  }

  /**
   * {@code key_polls}, {@code key_poll_failures}, {@code key_rotations}, {@code keys_held}, {@code
   * key_early_refreshes}, {@code sender_keys_held}, {@code edges_revoked}. Takes no lock: a refresh
   * may hold it for a whole request to the coordinator.
   */
  Map<String, Long> counters() {
    Served s = last;
    Map<String, Long> m = refresh.counters(true);
    m.put("sender_keys_held", (long) s.senders().size());
    m.put("edges_revoked", (long) s.revoked().size());
    return m;
  }

  @Override
  public void close() { // no lock: a refresh may hold it for a whole request
    refresh.close();
  }
}
