package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.HashSet;
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
  private final byte[] data;
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
    this.data = ZnodeData.endpoint(endpoint);
    this.counters = counters;
    this.writer =
        EntryWriter.start(
            client, edge, new EntryWriter.Listener() {}, EntryWriter.MAX_OPS, parentKnown);
    writer.put(ZnodePaths.edge(edge), data);
  }

  /** Creates the entries of {@code desired} not held yet and deletes those held no more. */
  void keep(Set<EdgeInterest.Entry> desired) {
    for (EdgeInterest.Entry e : desired) {
      if (!held.contains(e)) {
        writer.put(path(e), data);
        counters.add("entries_created");
      }
    }
    for (EdgeInterest.Entry e : held) {
      if (!desired.contains(e)) {
        writer.remove(path(e));
        counters.add("entries_deleted");
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
