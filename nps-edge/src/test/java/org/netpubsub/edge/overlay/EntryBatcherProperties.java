package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link EntryBatcher} against its naive twin, one operation at a time on a set: after random puts
 * and removes interleaved with batches sent, answered, lost on the way (applied or not), sessions
 * expiring (their entries gone at once or lingering as another session's) and entries a previous
 * session left behind, answering every batch until none is left gives exactly the twin's set of
 * znodes, all held by the current session. Meanwhile at most one batch is in flight and each stays
 * within its bounds. The ZooKeeper here is a map from path to (owner, version) executing batches as
 * {@link EntryWriter} sends them: a multi that fails falls back to one operation at a time.
 */
class EntryBatcherProperties {
  private static final int MAX_OPS = 3;
  private static final int MAX_BYTES = 400;

  sealed interface Op {}

  /** {@code variant}: which of two data the entry should hold (a deadline that changed). */
  record Put(int path, int variant) implements Op {}

  record Remove(int path) implements Op {}

  record Send() implements Op {}

  record Answer() implements Op {}

  record Lose(boolean applied) implements Op {}

  record Expire(boolean linger) implements Op {}

  record Reap() implements Op {}

  record Leftover(int path, int version) implements Op {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Integer> path = Arbitraries.integers().between(0, 5);
    Arbitrary<Op> op =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(
                5,
                net.jqwik.api.Combinators.combine(path, Arbitraries.integers().between(0, 1))
                    .as(Put::new)),
            net.jqwik.api.Tuple.of(3, path.map(Remove::new)),
            net.jqwik.api.Tuple.of(4, Arbitraries.just(new Send())),
            net.jqwik.api.Tuple.of(4, Arbitraries.just(new Answer())),
            net.jqwik.api.Tuple.of(1, Arbitraries.of(true, false).map(Lose::new)),
            net.jqwik.api.Tuple.of(1, Arbitraries.of(true, false).map(Expire::new)),
            net.jqwik.api.Tuple.of(1, Arbitraries.just(new Reap())),
            net.jqwik.api.Tuple.of(
                1,
                net.jqwik.api.Combinators.combine(path, Arbitraries.integers().between(0, 3))
                    .as(Leftover::new)));
    return op.list().ofMaxSize(60);
  }

  /** A znode of the simulated server. */
  record Node(long owner, int version, String data) {}

  /** The simulated server and the batch in flight. */
  static final class Zk {
    final Map<String, Node> nodes = new HashMap<>();
    long session = 1;

    /** Executes a batch as EntryWriter does; the outcome per path. */
    Map<String, EntryBatcher.Known> execute(EntryBatcher.Batch b) {
      if (b.ops().size() > 1) {
        Map<String, Node> copy = new HashMap<>(nodes);
        if (b.ops().stream().allMatch(op -> multiStep(copy, op))) {
          nodes.clear();
          nodes.putAll(copy);
          Map<String, EntryBatcher.Known> out = new HashMap<>();
          b.ops()
              .forEach(
                  op ->
                      out.put(
                          op.path(),
                          op instanceof EntryBatcher.Delete
                              ? EntryBatcher.Known.ABSENT
                              : EntryBatcher.Known.PRESENT));
          return out;
        }
      }
      Map<String, EntryBatcher.Known> out = new HashMap<>();
      b.ops().forEach(op -> out.put(op.path(), single(op)));
      return out;
    }

    private boolean multiStep(Map<String, Node> m, EntryBatcher.Op op) {
      switch (op) {
        case EntryBatcher.Create c -> {
          return m.putIfAbsent(c.path(), new Node(session, 0, text(c.data()))) == null;
        }
        case EntryBatcher.Delete d -> {
          return m.remove(d.path()) != null;
        }
        case EntryBatcher.Replace r -> {
          Node n = m.get(r.path());
          if (n == null || n.version() != r.version()) {
            return false;
          }
          m.put(r.path(), new Node(session, 0, text(r.data())));
          return true;
        }
        case EntryBatcher.SetData d -> {
          Node n = m.get(d.path());
          if (n == null) {
            return false;
          }
          m.put(d.path(), new Node(n.owner(), n.version() + 1, text(d.data())));
          return true;
        }
      }
    }

    private EntryBatcher.Known single(EntryBatcher.Op op) {
      Node n = nodes.get(op.path());
      switch (op) {
        case EntryBatcher.Create c -> {
          if (n == null) {
            nodes.put(c.path(), new Node(session, 0, text(c.data())));
            return EntryBatcher.Known.PRESENT;
          }
          return n.owner() == session
              ? EntryBatcher.Known.OURS
              : EntryBatcher.Known.foreign(n.version());
        }
        case EntryBatcher.Delete d -> {
          nodes.remove(d.path());
          return EntryBatcher.Known.ABSENT;
        }
        case EntryBatcher.Replace r -> {
          if (n == null || n.version() != r.version()) {
            return EntryBatcher.Known.UNKNOWN;
          }
          nodes.put(r.path(), new Node(session, 0, text(r.data())));
          return EntryBatcher.Known.PRESENT;
        }
        case EntryBatcher.SetData d -> {
          if (n == null) {
            return EntryBatcher.Known.UNKNOWN;
          }
          nodes.put(d.path(), new Node(n.owner(), n.version() + 1, text(d.data())));
          return EntryBatcher.Known.PRESENT;
        }
      }
    }
  }

  @Property(tries = 500)
  void batchingEndsWithTheNaiveTwinsZnodes(@ForAll("ops") List<Op> ops) {
    EntryBatcher batcher = new EntryBatcher(MAX_OPS, MAX_BYTES);
    Zk zk = new Zk();
    Map<String, String> twin = new HashMap<>();
    EntryBatcher.Batch inFlight = null;
    for (Op op : ops) {
      switch (op) {
        case Put p -> {
          byte[] d = data(p.path() + 10 * p.variant());
          batcher.put(path(p.path()), d);
          twin.put(path(p.path()), text(d));
        }
        case Remove r -> {
          batcher.remove(path(r.path()));
          twin.remove(path(r.path()));
        }
        case Send s -> {
          Optional<EntryBatcher.Batch> b = batcher.next();
          if (inFlight != null) {
            assertThat(b).as("one batch in flight at most").isEmpty();
          } else if (b.isPresent()) {
            assertBounded(b.get());
            inFlight = b.get();
          }
        }
        case Answer a -> {
          if (inFlight != null) {
            batcher.finished(inFlight, zk.execute(inFlight));
            inFlight = null;
          }
        }
        case Lose l -> {
          if (inFlight != null) {
            if (l.applied()) {
              zk.execute(inFlight); // committed, but the answer was lost
            }
            batcher.finished(inFlight, Map.of());
            inFlight = null;
          }
        }
        case Expire e -> {
          long old = zk.session++;
          if (!e.linger()) {
            zk.nodes.values().removeIf(n -> n.owner() == old);
          }
          batcher.newSession();
        }
        case Reap r -> zk.nodes.values().removeIf(n -> n.owner() != zk.session);
        case Leftover l -> zk.nodes.putIfAbsent(path(l.path()), new Node(-1, l.version(), "old"));
      }
    }
    if (inFlight != null) {
      batcher.finished(inFlight, zk.execute(inFlight));
    }
    zk.nodes.values().removeIf(n -> n.owner() != zk.session); // old sessions end
    for (int i = 0; i < 100; i++) {
      Optional<EntryBatcher.Batch> b = batcher.next();
      if (b.isEmpty()) {
        break;
      }
      assertBounded(b.get());
      batcher.finished(b.get(), zk.execute(b.get()));
    }
    assertThat(batcher.isSettled()).isTrue();
    Map<String, String> held = new HashMap<>();
    zk.nodes.forEach((p, n) -> held.put(p, n.data()));
    assertThat(held).as("paths and their latest data").isEqualTo(twin);
    assertThat(zk.nodes.values()).allMatch(n -> n.owner() == zk.session);
    assertThat(batcher.desired()).isEqualTo(twin.keySet());
    twin.keySet().forEach(p -> assertThat(batcher.isCommitted(p)).isTrue());
  }

  @net.jqwik.api.Example
  void whatArrivesWhileABatchIsInFlightGoesIntoTheNextOne() {
    EntryBatcher batcher = new EntryBatcher(1000, EntryWriter.MAX_BYTES);
    batcher.put(path(0), data(0));
    EntryBatcher.Batch first = batcher.next().orElseThrow();
    for (int i = 1; i < 6; i++) {
      batcher.put(path(i), data(i));
    }
    batcher.remove(path(0)); // deleted as soon as it is created
    assertThat(batcher.next()).as("one batch in flight at most").isEmpty();
    assertThat(batcher.finished(first, Map.of(path(0), EntryBatcher.Known.PRESENT))).isEmpty();
    EntryBatcher.Batch second = batcher.next().orElseThrow();
    assertThat(second.ops()).hasSize(6);
    assertThat(second.ops().stream().filter(o -> o instanceof EntryBatcher.Delete).toList())
        .extracting(EntryBatcher.Op::path)
        .containsExactly(path(0));
  }

  private static void assertBounded(EntryBatcher.Batch b) {
    assertThat(b.ops()).isNotEmpty().hasSizeLessThanOrEqualTo(MAX_OPS);
    int bytes = b.ops().stream().mapToInt(EntryBatcher.Op::size).sum();
    assertThat(b.ops().size() == 1 || bytes <= MAX_BYTES).as("%d bytes", bytes).isTrue();
    assertThat(b.ops().stream().map(EntryBatcher.Op::path).distinct().count())
        .as("a path at most once per batch")
        .isEqualTo(b.ops().size());
  }

  private static String path(int i) {
    return "/topics/t" + i + "/sub/edge";
  }

  private static String text(byte[] d) {
    return new String(d, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static byte[] data(int i) {
    return ("d" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
