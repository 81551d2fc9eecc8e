package org.netpubsub.edge.overlay;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Group commit of one writer's ephemeral entries (pure; {@link EntryWriter} does the I/O). It keeps
 * what should exist (desired: path and data, or absent) apart from what is known to exist in
 * ZooKeeper (committed), and cuts the next batch of operations that brings the one to the other. At
 * most one batch is in flight; whatever changes meanwhile goes into the next one, bounded by an
 * operation count and an estimated request size.
 *
 * <p>The guarantees of Curator's {@code PersistentNode} that the edge broker relies on: a new
 * session makes every committed state unknown (the old session's ephemerals went, or are about to
 * go, with it), so every desired entry is created again; a removed entry is deleted and never
 * created again; an entry a previous session still holds (NodeExists, another owner) is replaced by
 * ours in one transaction. A batch that was in flight across a new session tells nothing reliable
 * (the client may have retried it on the new session), so its paths become unknown too. Not
 * thread-safe: the caller serializes.
 */
final class EntryBatcher {
  /** Bytes an operation adds to a multi request besides its path and data (header, ACL, flags). */
  static final int OP_OVERHEAD = 96;

  /** One operation of a batch. */
  sealed interface Op {
    String path();

    /** Estimated bytes in a multi request. */
    default int size() {
      return OP_OVERHEAD + path().getBytes(StandardCharsets.UTF_8).length;
    }
  }

  /** Create an ephemeral entry. */
  record Create(String path, byte[] data) implements Op {
    @Override
    public int size() {
      return Op.super.size() + data.length;
    }
  }

  /** Delete an entry (any version: it is this writer's by name). */
  record Delete(String path) implements Op {}

  /** Delete another session's entry at {@code version} and create ours, atomically. */
  record Replace(String path, byte[] data, int version) implements Op {
    @Override
    public int size() {
      return 2 * Op.super.size() + data.length;
    }
  }

  /** Rewrite this session's entry with new data (a subscriber entry's deadline changed). */
  record SetData(String path, byte[] data) implements Op {
    @Override
    public int size() {
      return Op.super.size() + data.length;
    }
  }

  /** Operations to send as one request, cut in session {@code session}. */
  record Batch(long session, List<Op> ops) {}

  /** What is known of one path in ZooKeeper after an operation. */
  record Known(State state, int version) {
    static final Known PRESENT = new Known(State.PRESENT, 0);

    /** Present and this session's, its data not known (a create that found it existing). */
    static final Known OURS = new Known(State.PRESENT, -1);

    static final Known ABSENT = new Known(State.ABSENT, 0);
    static final Known UNKNOWN = new Known(State.UNKNOWN, 0);

    /** Present, but held by another session (ephemeral owner), at {@code version}. */
    static Known foreign(int version) {
      return new Known(State.FOREIGN, version);
    }
  }

  enum State {
    PRESENT,
    ABSENT,
    FOREIGN,
    UNKNOWN
  }

  private final int maxOps;
  private final int maxBytes;
  private final Map<String, byte[]> desired = new HashMap<>();
  private final Map<String, Known> committed = new HashMap<>(); // absent: not in the map
  private final Map<String, byte[]> committedData = new HashMap<>(); // of the PRESENT paths
  private final Set<String> dirty = new LinkedHashSet<>(); // may need an operation; oldest first
  private Batch inFlight;
  private long session;

  /**
   * {@code maxOps} operations and about {@code maxBytes} per batch (ZooKeeper refuses requests
   * above {@code jute.maxbuffer}, 1 MB by default); a single larger operation still goes alone.
   */
  EntryBatcher(int maxOps, int maxBytes) {
    if (maxOps < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("maxOps and maxBytes must be >= 1");
    }
    this.maxOps = maxOps;
    this.maxBytes = maxBytes;
  }

  /** The entry at {@code path} should exist with {@code data}. */
  void put(String path, byte[] data) {
    desired.put(path, data.clone());
    dirty.add(path);
  }

  /** The entry at {@code path} should not exist. */
  void remove(String path) {
    if (desired.remove(path) != null || committed.containsKey(path)) {
      dirty.add(path);
    }
  }

  Set<String> desired() {
    return Set.copyOf(desired.keySet());
  }

  /** True when {@code path} is desired and known to exist as this session's. */
  boolean isCommitted(String path) {
    return desired.containsKey(path)
        && committed.getOrDefault(path, Known.ABSENT).state() == State.PRESENT;
  }

  /** True when nothing is in flight and every desired state is the committed one. */
  boolean isSettled() {
    return inFlight == null && dirty.stream().allMatch(p -> op(p) == null);
  }

  boolean isInFlight() {
    return inFlight != null;
  }

  long session() {
    return session;
  }

  /** The session changed: nothing committed before is known any more. */
  void newSession() {
    session++;
    for (String p : committed.keySet()) {
      committed.put(p, Known.UNKNOWN);
    }
    dirty.addAll(committed.keySet());
    dirty.addAll(desired.keySet());
  }

  /** The next batch, or empty while one is in flight or nothing needs writing. */
  Optional<Batch> next() {
    if (inFlight != null) {
      return Optional.empty();
    }
    List<Op> ops = new ArrayList<>();
    int bytes = 0;
    for (var it = dirty.iterator(); it.hasNext() && ops.size() < maxOps; ) {
      String p = it.next();
      Op op = op(p);
      if (op == null) {
        it.remove();
        forgetIfIdle(p);
        continue;
      }
      if (!ops.isEmpty() && bytes + op.size() > maxBytes) {
        break;
      }
      ops.add(op);
      bytes += op.size();
      it.remove();
    }
    if (ops.isEmpty()) {
      return Optional.empty();
    }
    inFlight = new Batch(session, List.copyOf(ops));
    return Optional.of(inFlight);
  }

  /**
   * The batch came back; {@code outcome} says what is now known of each of its paths (a path it
   * does not name: unknown). Returns the paths now committed that are desired (for listeners).
   */
  List<String> finished(Batch b, Map<String, Known> outcome) {
    if (b != inFlight) {
      throw new IllegalStateException("not the batch in flight");
    }
    inFlight = null;
    List<String> done = new ArrayList<>();
    for (Op op : b.ops()) {
      String p = op.path();
      Known k = b.session() == session ? outcome.getOrDefault(p, Known.UNKNOWN) : Known.UNKNOWN;
      committed.put(p, k);
      if (k == Known.PRESENT && data(op) != null) {
        committedData.put(p, data(op));
      } else {
        committedData.remove(p); // OURS: rewritten if it differs from the desired data
      }
      if (k.state() == State.PRESENT && desired.containsKey(p)) {
        done.add(p);
      }
      if (op(p) != null) {
        dirty.add(p);
      } else {
        forgetIfIdle(p);
      }
    }
    return done;
  }

  /** The operation {@code path} needs now, or null. */
  private Op op(String path) {
    byte[] data = desired.get(path);
    Known k = committed.getOrDefault(path, Known.ABSENT);
    if (data != null) {
      return switch (k.state()) {
        case PRESENT ->
            java.util.Arrays.equals(data, committedData.get(path))
                ? null
                : new SetData(path, data); // only on change
        case ABSENT, UNKNOWN -> new Create(path, data);
        case FOREIGN -> new Replace(path, data, k.version());
      };
    }
    return switch (k.state()) {
      case PRESENT, UNKNOWN -> new Delete(path);
      case ABSENT, FOREIGN -> null; // another session's entry goes with that session
    };
  }

  private static byte[] data(Op op) {
    return switch (op) {
      case Create c -> c.data();
      case Replace r -> r.data();
      case SetData d -> d.data();
      case Delete d -> null;
    };
  }

  /** Drops the bookkeeping of a path that is neither desired nor ours. */
  private void forgetIfIdle(String path) {
    if (!desired.containsKey(path)) {
      Known k = committed.get(path);
      if (k != null && (k.state() == State.ABSENT || k.state() == State.FOREIGN)) {
        committed.remove(path);
        committedData.remove(path);
      }
    }
  }
}
