package org.netpubsub.edge.coordinator;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The coordinator's thread-safe core: {@link CoordinatorState} under one lock, written through to
 * the {@link CoordinatorStore}, with the network groups in network mode. A filter change answers
 * once every agent holding an affected route has acknowledged it (or {@code ackTimeout} passed), so
 * an acknowledged subscription is in every route given out afterwards.
 */
final class CoordinatorService {
  private static final Logger LOG = Logger.getLogger(CoordinatorService.class.getName());

  /** One route target: an edge's agent ({@code spray}) or the network's address. */
  record Target(String edge, InetSocketAddress address) {}

  record RouteReply(String topic, long version, String mode, List<Target> targets) {}

  record FilterReply(long version, List<String> changed, boolean synced) {}

  /**
   * A request that would take the coordinator beyond one of its {@link CoordinatorCaps} (429 with
   * the message); thrown inside the request's transaction, so nothing of it is applied.
   */
  static final class CapReached extends RuntimeException {
    CapReached(String message) {
      super(message, null, false, false);
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final CoordinatorState state;
  private final CoordinatorStore store;
  private final Optional<NetworkGroups> network;
  private final Duration ackTimeout;
  private final CoordinatorCaps caps;

  CoordinatorService(
      CoordinatorStore store,
      Optional<GroupController> controller,
      Duration ackTimeout,
      CoordinatorCaps caps) {
    this.store = store;
    this.ackTimeout = ackTimeout;
    this.caps = caps;
    this.state = new CoordinatorState(store.version());
    store.edges().forEach(state::restore);
    store.exchanges().forEach(state::restoreExchanges);
    store.saveVersion(state.version());
    this.network = controller.map(c -> new NetworkGroups(c, store));
  }

  /** {@code work}'s writes as one transaction of the store (all or nothing, issue 27). */
  private <T> T inTransaction(java.util.function.Supplier<T> work) {
    List<T> out = new ArrayList<>(1);
    store.transaction(() -> out.add(work.get()));
    return out.get(0);
  }

  String mode() {
    return network.isPresent() ? "network" : "spray";
  }

  /** Registers an edge; returns the filters the coordinator already has for it. */
  Set<String> register(Edge e) {
    CoordinatorState.Change c;
    lock.lock();
    try {
      c =
          inTransaction(
              () -> {
                store.putEdge(e);
                // counted after the write, in its transaction: a known edge re-registering adds
                // none, and two new edges racing for the last place cannot both see it free
                if (store.edgeCount() > caps.edges()) {
                  throw new CapReached(
                      "the coordinator has " + caps.edges() + " edges already (the limit)");
                }
                CoordinatorState.Change ch = state.register(e);
                store.saveVersion(ch.version());
                return ch;
              });
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    awaitAcks(c);
    lock.lock();
    try {
      return state.filters(e.name());
    } finally {
      lock.unlock();
    }
  }

  long leave(String name) {
    CoordinatorState.Change c;
    lock.lock();
    try {
      requireEdge(name);
      c = removeEdges(List.of(name));
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    awaitAcks(c);
    return c.version();
  }

  /**
   * Removes every registered edge in {@code revoked} as {@link #leave} would, all in one store
   * transaction (nothing of it if a write fails): other agents drop their routes at their next
   * change poll, which this wakes; no acknowledgement is awaited (the caller is not the edge).
   * Returns how many were removed; a set naming none registered costs no transaction.
   */
  int removeRevoked(Set<String> revoked) {
    lock.lock();
    try {
      List<String> gone = state.edges().keySet().stream().filter(revoked::contains).toList();
      if (gone.isEmpty()) {
        return 0;
      }
      removeEdges(gone);
      changed.signalAll();
      LOG.info("revoked edges removed from routing: " + gone);
      return gone.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes the registered edges {@code names} (not empty) in one store transaction, nothing of it
   * if a write fails (every delete comes before the state changes), and tells the network once; the
   * last change, whose version is the new one. Under the lock; the caller wakes the pollers.
   */
  private CoordinatorState.Change removeEdges(List<String> names) {
    return inTransaction(
        () -> {
          names.forEach(store::removeEdge);
          List<String> filters = new ArrayList<>();
          CoordinatorState.Change last = null;
          for (String name : names) {
            last = state.leave(name);
            filters.addAll(last.changedFilters());
          }
          store.saveVersion(last.version());
          network.ifPresent(n -> n.membershipChanged(state, filters));
          return last;
        });
  }

  FilterReply updateFilters(String edge, List<String> added, List<String> removed) {
    CoordinatorState.Change c;
    lock.lock();
    try {
      requireEdge(edge);
      // validate first, so the database and the state never disagree
      added.forEach(TopicFilters::checkFilter);
      removed.forEach(TopicFilters::checkFilter);
      c =
          inTransaction(
              () -> {
                store.addFilters(edge, added);
                store.removeFilters(edge, removed);
                if (!added.isEmpty() && store.filterCount(edge) > caps.filtersPerEdge()) {
                  throw new CapReached(
                      "edge '"
                          + edge
                          + "' would hold over "
                          + caps.filtersPerEdge()
                          + " filters (the limit)");
                }
                CoordinatorState.Change ch = state.updateFilters(edge, added, removed);
                if (!ch.changedFilters().isEmpty()) {
                  store.saveVersion(ch.version());
                  network.ifPresent(n -> n.membershipChanged(state, ch.changedFilters()));
                }
                return ch;
              });
      if (!c.changedFilters().isEmpty()) {
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
    return new FilterReply(c.version(), c.changedFilters(), awaitAcks(c));
  }

  /** Exchanges declared or deleted at {@code edge}; answers once every other agent mirrors them. */
  FilterReply updateExchanges(String edge, List<Exchange> created, List<String> deleted) {
    CoordinatorState.Change c;
    lock.lock();
    try {
      requireEdge(edge);
      deleted.forEach(n -> Exchange.check(n, "exchange name"));
      c =
          inTransaction(
              () -> {
                store.addExchanges(edge, created);
                store.removeExchanges(edge, deleted);
                CoordinatorState.Change ch = state.updateExchanges(edge, created, deleted);
                if (!ch.mustAck().isEmpty()) {
                  store.saveVersion(ch.version());
                }
                return ch;
              });
      if (!c.mustAck().isEmpty()) {
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
    return new FilterReply(c.version(), List.of(), awaitAcks(c));
  }

  List<CoordinatorState.MirroredExchange> exchanges() {
    lock.lock();
    try {
      return state.exchanges();
    } finally {
      lock.unlock();
    }
  }

  RouteReply route(String topic, String origin, boolean retain) {
    lock.lock();
    try {
      CoordinatorState.RouteAnswer a = state.route(topic, origin, retain);
      List<Target> spray = new ArrayList<>();
      for (Edge e : a.targets()) {
        spray.add(new Target(e.name(), new InetSocketAddress(e.address(), e.port())));
      }
      // retained messages go to every edge: sprayed in both modes (docs/edge.md)
      if (network.isEmpty() || retain || spray.isEmpty()) {
        return new RouteReply(topic, a.version(), "spray", spray);
      }
      Edge from = state.edge(origin).orElseThrow();
      try {
        String to = network.get().sendTo(topic, from, state.members(topic), state.edges());
        return new RouteReply(
            topic,
            a.version(),
            "network",
            List.of(new Target(null, new InetSocketAddress(to, from.port()))));
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "network group for '" + topic + "', spraying: " + e.getMessage());
        return new RouteReply(topic, a.version(), "spray", spray);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Long-poll: acknowledges changes up to {@code after}, then answers as soon as {@code edge} has
   * routes to drop, or after {@code wait} with nothing to drop.
   */
  CoordinatorState.Changes changes(String edge, long after, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    lock.lock();
    try {
      requireEdge(edge);
      long ackedBefore = state.acked(edge);
      while (true) {
        Optional<CoordinatorState.Changes> c = state.poll(edge, after);
        if (state.acked(edge) > ackedBefore) {
          ackedBefore = state.acked(edge);
          changed.signalAll(); // the acknowledgement may complete a change someone waits for
        }
        if (c.isPresent()) {
          return c.get();
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || state.edge(edge).isEmpty()) {
          return new CoordinatorState.Changes(state.version(), false, Set.of(), false);
        }
        changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
  }

  Map<Edge, Set<String>> snapshot() {
    lock.lock();
    try {
      Map<Edge, Set<String>> out = new java.util.LinkedHashMap<>();
      state.edges().values().forEach(e -> out.put(e, state.filters(e.name())));
      return out;
    } finally {
      lock.unlock();
    }
  }

  long version() {
    lock.lock();
    try {
      return state.version();
    } finally {
      lock.unlock();
    }
  }

  Optional<String> groupName(String topic) {
    lock.lock();
    try {
      return network.flatMap(n -> n.name(topic));
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every long-poll (shutdown). */
  void wakeAll() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private boolean awaitAcks(CoordinatorState.Change c) {
    if (c.mustAck().isEmpty()) {
      return true;
    }
    long deadline = System.nanoTime() + ackTimeout.toNanos();
    lock.lock();
    try {
      while (true) {
        List<String> missing =
            c.mustAck().stream().filter(e -> !state.acknowledged(e, c.version())).toList();
        if (missing.isEmpty()) {
          return true;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LOG.warning(
              "change "
                  + c.version()
                  + " not acknowledged within "
                  + ackTimeout
                  + " by "
                  + missing);
          return false;
        }
        changed.await(left, TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      lock.unlock();
    }
  }

  private void requireEdge(String name) {
    if (state.edge(name).isEmpty()) {
      throw new java.util.NoSuchElementException("no edge named '" + name + "'");
    }
  }
}
