package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * An agent's datagram keys from the coordinator (docs/security.md): fetched once before the first
 * datagram ({@link #fetch}, refused with one line if that fails), then polled every {@code
 * interval} on a thread of its own ({@link #start}). Each answer goes through {@link HeldKeys}
 * (keys the coordinator stopped listing stay accepted for one interval) into one {@link
 * DatagramAuth}. A failed poll keeps the keys held; it is counted, and logged when a run of
 * failures starts and ends; the next poll is still one interval later (no backoff). The loop and
 * counters are {@link KeyRefresh}'s, shared with {@link OwnKeyPoller}; this is its answer kind: the
 * deployment keys and the edges revoked at the coordinator, which the agent refuses as {@code
 * revoked_origin} beside its own {@code --revoked-edges} ({@link AgentKeys#revokedByCoordinator}).
 */
final class KeyPoller implements Closeable {
  /**
   * One answer: the deployment keys (the first signing) and the edges revoked at the coordinator.
   */
  record Served(List<byte[]> keys, Set<String> revoked) {}

  /** Where the keys come from: the coordinator, or a test's fake. */
  interface Source {
    Served fetch() throws CoordinatorClient.CoordinatorException;
  }

  /** The answer kind; {@code target} is guarded by the refresh's lock once started. */
  private static final class Answers implements KeyRefresh.Kind<Served> {
    private AgentKeys target; // set by start
    private volatile Served last; // the last good answer

    @Override
    public void check(Served s) {
      DatagramAuth.of(s.keys()); // lengths, before anything is replaced
      if (s.revoked().size() > AgentKeys.MAX_SENDERS) {
        throw new IllegalArgumentException("more than " + AgentKeys.MAX_SENDERS + " revoked edges");
      }
    }

    @Override
    public List<byte[]> keys(Served s) {
      return s.keys();
    }

    @Override
    public void apply(Served s) {
      if (target != null) {
        target.revokedByCoordinator(s.revoked());
      }
      last = s;
    }

    @Override
    public String rotated(Served s) {
      return "the coordinator rotated the signing key (" + s.keys().size() + " keys)";
    }
  }

  private static final KeyRefresh.Wording WORDS =
      new KeyRefresh.Wording("datagram keys", "poll failed, keeping the keys held");

  private final Answers answers;
  private final KeyRefresh<Served> refresh;

  private KeyPoller(Answers answers, KeyRefresh<Served> refresh) {
    this.answers = answers;
    this.refresh = refresh;
  }

  /**
   * The first fetch, before the agent sends anything; an {@link IOException} with one clear line if
   * the coordinator is unreachable, refuses ({@code 401}, {@code 403}, {@code 404}) or answers
   * unusable keys. {@code clock}: monotonic nanoseconds ({@code System::nanoTime}).
   */
  static KeyPoller fetch(Source source, Duration interval, LongSupplier clock) throws IOException {
    try {
      Answers answers = new Answers();
      Served first = source.fetch();
      answers.last = first;
      return new KeyPoller(
          answers, new KeyRefresh<>(source::fetch, answers, WORDS, clock, interval, false, first));
    } catch (CoordinatorClient.CoordinatorException | IllegalArgumentException e) {
      throw new IOException(
          "cannot fetch the datagram keys from the coordinator: " + e.getMessage());
    }
  }

  /** The authentication the agent seals and checks with; its keys change as polls say. */
  DatagramAuth auth() {
    return refresh.auth();
  }

  /** The edges the coordinator revoked in its last good answer. */
  Set<String> revoked() {
    return answers.last.revoked();
  }

  /**
   * Polls every interval on a daemon thread until {@link #close}, handing each answer's revoked
   * edges to {@code keys} (null: a test's, keys only).
   */
  void start(String edge, AgentKeys keys) {
    synchronized (refresh) { // the lock poll() holds: apply() sees target set
      answers.target = keys;
    }
    refresh.start("nps-agent-keys-" + edge);
  }

  /** One poll: asks the coordinator, and applies the answer (or keeps the keys on a failure). */
  void poll() {
    refresh.poll();
  }

  /**
   * {@code key_polls}, {@code key_poll_failures}, {@code key_rotations}, {@code keys_held}, {@code
   * edges_revoked} (the coordinator's).
   */
  Map<String, Long> counters() {
    Map<String, Long> m = refresh.counters(false);
    m.put("edges_revoked", (long) answers.last.revoked().size());
    return m;
  }

  @Override
  public void close() {
    refresh.close();
  }
}
