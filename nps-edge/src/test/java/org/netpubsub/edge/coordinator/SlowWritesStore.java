package org.netpubsub.edge.coordinator;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link CoordinatorStore} whose next write of one edge (the edge, or filters at it) stalls for a
 * while, as on a stalled disk or a distant PostgreSQL: other requests arrive and wait meanwhile, so
 * a race between them shows in every run instead of once in many.
 */
final class SlowWritesStore implements CoordinatorStore {
  private final CoordinatorStore d;
  private volatile String slowEdge; // the edge whose next write stalls; null: none
  private volatile long stallNanos;
  private volatile CountDownLatch stalling = new CountDownLatch(1);

  SlowWritesStore(CoordinatorStore delegate) {
    this.d = delegate;
  }

  /** The next write of {@code edge} stalls {@code millis}; the latch opens when it starts to. */
  CountDownLatch stallNextWrite(String edge, long millis) {
    stalling = new CountDownLatch(1);
    stallNanos = millis * 1_000_000;
    slowEdge = edge;
    return stalling;
  }

  private void slow(String edge) {
    if (edge.equals(slowEdge)) {
      slowEdge = null;
      stalling.countDown();
      LockSupport.parkNanos(stallNanos); // the write's own cost, not a wait for anything
    }
  }

  @Override
  public long version() {
    return d.version();
  }

  @Override
  public void saveVersion(long version) {
    d.saveVersion(version);
  }

  @Override
  public Map<Edge, List<String>> edges() {
    return d.edges();
  }

  @Override
  public void putEdge(Edge e) {
    slow(e.name());
    d.putEdge(e);
  }

  @Override
  public int edgeCount() {
    return d.edgeCount();
  }

  @Override
  public int filterCount(String edge) {
    return d.filterCount(edge);
  }

  @Override
  public void removeEdge(String name) {
    d.removeEdge(name);
  }

  @Override
  public void addFilters(String edge, Collection<String> filters) {
    slow(edge);
    d.addFilters(edge, filters);
  }

  @Override
  public void removeFilters(String edge, Collection<String> filters) {
    d.removeFilters(edge, filters);
  }

  @Override
  public Map<String, List<Exchange>> exchanges() {
    return d.exchanges();
  }

  @Override
  public void addExchanges(String edge, Collection<Exchange> exchanges) {
    d.addExchanges(edge, exchanges);
  }

  @Override
  public void removeExchanges(String edge, Collection<String> names) {
    d.removeExchanges(edge, names);
  }

  @Override
  public List<Group> groups() {
    return d.groups();
  }

  @Override
  public void putGroup(Group g) {
    d.putGroup(g);
  }

  @Override
  public void removeGroup(String topic) {
    d.removeGroup(topic);
  }

  @Override
  public void transaction(Runnable work) {
    d.transaction(work);
  }

  @Override
  public void close() {
    d.close();
  }
}
