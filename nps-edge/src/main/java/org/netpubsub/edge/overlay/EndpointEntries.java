package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;

/**
 * An edge broker's endpoint entries ({@code /topics/<t>/pub|sub/<edge>}): brings them in line with
 * the entries {@link EdgeInterest} wants, through one group-commit {@link EntryWriter} (counters
 * {@code entries_created}, {@code entries_deleted}). The same writer holds the edge's directory
 * record ({@code /edges/<edge>}), put first so that it reaches ZooKeeper before any entry. Called
 * from one thread (the edge's worker).
 */
final class EndpointEntries implements Closeable {
  private final String edge;
  private final Endpoint endpoint;
  private final byte[] data;
  private final java.util.Map<String, Long> subDeadlines = new java.util.HashMap<>(); // held
  private final EntryWriter writer;
  private final Counters counters;
  private volatile Set<EdgeInterest.Entry> held = Set.of();

  /**
   * {@code endpoint}: what every entry holds (the edge's site and datagram address); {@code
   * parentKnown}: whether the edge's caches hold a container, so the writer need not create it.
   */
  EndpointEntries(
      CuratorFramework client,
      String edge,
      Endpoint endpoint,
      Counters counters,
      java.util.function.Predicate<String> parentKnown) {
    this.edge = edge;
    this.endpoint = endpoint;
    this.data = ZnodeData.endpoint(endpoint);
    this.counters = counters;
    this.writer =
        EntryWriter.start(
            client, edge, new EntryWriter.Listener() {}, EntryWriter.MAX_OPS, parentKnown);
    writer.put(ZnodePaths.edge(edge), data);
  }

  /**
   * Creates the entries of {@code desired} not held yet and deletes those held no more; a
   * subscriber entry carries its topic's deadline from {@code readerDeadlines} (the site's readers'
   * shortest requested one) and is rewritten when that changes ({@code entries_rewritten}).
   */
  void keep(
      Set<EdgeInterest.Entry> desired,
      java.util.function.Function<String, Optional<Long>> readerDeadlines) {
    for (EdgeInterest.Entry e : desired) {
      Optional<Long> d =
          e.role() == ZnodePaths.Role.SUBSCRIBER
              ? readerDeadlines.apply(e.topic())
              : Optional.empty();
      boolean isNew = !held.contains(e);
      if (isNew
          || !d.equals(Optional.ofNullable(subDeadlines.get(e.topic())))
              && e.role() == ZnodePaths.Role.SUBSCRIBER) {
        writer.put(path(e), d.isEmpty() ? data : ZnodeData.endpoint(endpoint.withDeadline(d)));
        counters.add(isNew ? "entries_created" : "entries_rewritten");
      }
      if (e.role() == ZnodePaths.Role.SUBSCRIBER) {
        d.ifPresentOrElse(
            x -> subDeadlines.put(e.topic(), x), () -> subDeadlines.remove(e.topic()));
      }
    }
    for (EdgeInterest.Entry e : held) {
      if (!desired.contains(e)) {
        writer.remove(path(e));
        counters.add("entries_deleted");
        if (e.role() == ZnodePaths.Role.SUBSCRIBER) {
          subDeadlines.remove(e.topic());
        }
      }
    }
    held = Set.copyOf(new HashSet<>(desired));
  }

  /** The entries held (committed, or on their way). */
  Set<EdgeInterest.Entry> held() {
    return held;
  }

  /** Deletes every entry, waiting up to {@code waitMillis} for ZooKeeper. */
  void deleteAll(long waitMillis) {
    held = Set.of();
    writer.close(waitMillis);
  }

  /** Stops without deleting: the entries go with the session. */
  @Override
  public void close() {
    writer.close();
  }

  private String path(EdgeInterest.Entry e) {
    return ZnodePaths.endpoint(e.topic(), e.role(), edge);
  }
}
