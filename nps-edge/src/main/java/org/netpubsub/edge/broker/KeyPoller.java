package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * deployment keys alone.
 */
final class KeyPoller implements Closeable {
  /** Where the keys come from: the coordinator, or a test's fake. */
  interface Source {
    List<byte[]> fetch() throws CoordinatorClient.CoordinatorException;
  }

  private static final KeyRefresh.Kind<List<byte[]>> KIND =
      new KeyRefresh.Kind<>() {
        @Override
        public void check(List<byte[]> keys) {
          DatagramAuth.of(keys); // lengths, before anything is replaced
        }

        @Override
        public List<byte[]> keys(List<byte[]> keys) {
          return keys;
        }

        @Override
        public void apply(List<byte[]> keys) {}

        @Override
        public String rotated(List<byte[]> keys) {
          return "the coordinator rotated the signing key (" + keys.size() + " keys)";
        }
      };

  private static final KeyRefresh.Wording WORDS =
      new KeyRefresh.Wording("datagram keys", "poll failed, keeping the keys held");

  private final KeyRefresh<List<byte[]>> refresh;

  private KeyPoller(KeyRefresh<List<byte[]>> refresh) {
    this.refresh = refresh;
  }

  /**
   * The first fetch, before the agent sends anything; an {@link IOException} with one clear line if
   * the coordinator is unreachable, refuses ({@code 401}, {@code 403}, {@code 404}) or answers
   * unusable keys. {@code clock}: monotonic nanoseconds ({@code System::nanoTime}).
   */
  static KeyPoller fetch(Source source, Duration interval, LongSupplier clock) throws IOException {
    try {
      return new KeyPoller(
          new KeyRefresh<>(source::fetch, KIND, WORDS, clock, interval, false, source.fetch()));
    } catch (CoordinatorClient.CoordinatorException | IllegalArgumentException e) {
      throw new IOException(
          "cannot fetch the datagram keys from the coordinator: " + e.getMessage());
    }
  }

  /** The authentication the agent seals and checks with; its keys change as polls say. */
  DatagramAuth auth() {
    return refresh.auth();
  }

  /** Polls every interval on a daemon thread until {@link #close}. */
  void start(String edge) {
    refresh.start("nps-agent-keys-" + edge);
  }

  /** One poll: asks the coordinator, and applies the answer (or keeps the keys on a failure). */
  void poll() {
    refresh.poll();
  }

  /** {@code key_polls}, {@code key_poll_failures}, {@code key_rotations}, {@code keys_held}. */
  Map<String, Long> counters() {
    return refresh.counters(false);
  }

  @Override
  public void close() {
    refresh.close();
  }
}
