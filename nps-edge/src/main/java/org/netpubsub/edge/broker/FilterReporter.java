package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Turns what the broker side learns into reports to the coordinator, in order, on one thread,
 * retrying while the coordinator is unreachable. Owns the {@link LocalFilters} (that thread only)
 * and the set of filters the coordinator has acknowledged.
 */
final class FilterReporter<L extends LocalFilters> implements Closeable {
  private static final Logger LOG = Logger.getLogger(FilterReporter.class.getName());
  private static final Duration RETRY = Duration.ofMillis(200);

  private final String edge;
  private final CoordinatorClient coordinator;
  private final AgentCounters counters;
  private final Runnable unknownEdge;
  private final L local;
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final AtomicInteger pending = new AtomicInteger();
  private final ExecutorService thread;
  private volatile boolean closed;

  /**
   * @param unknownEdge what to do when the coordinator does not know the edge (register again)
   */
  FilterReporter(
      String edge,
      L local,
      CoordinatorClient coordinator,
      AgentCounters counters,
      Runnable unknownEdge) {
    this.edge = edge;
    this.coordinator = coordinator;
    this.counters = counters;
    this.unknownEdge = unknownEdge;
    this.local = local;
    this.thread =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("nps-agent-report-" + edge).factory());
  }

  /**
   * Something the broker said: {@code apply} runs on the reporter's thread against the local
   * filters, and what it changes is reported.
   */
  void update(Function<L, List<FilterChange>> apply) {
    submit(
        () -> {
          List<String> added = new ArrayList<>();
          List<String> removed = new ArrayList<>();
          for (FilterChange c : apply.apply(local)) {
            (c.present() ? added : removed).add(c.filter());
          }
          if (!added.isEmpty() || !removed.isEmpty()) {
            send(added, removed);
          }
        });
  }

  /**
   * The edge (re)registered and the coordinator has {@code filters} for it. The broker log does not
   * repeat old subscriptions: keep those, and report what the coordinator lacks (it lost the edge,
   * or the agent saw more).
   */
  void registered(List<String> filters) {
    submit(
        () -> {
          local.carryOver(filters);
          acknowledged.addAll(filters);
          List<String> missing =
              local.filters().stream().filter(f -> !filters.contains(f)).sorted().toList();
          if (!missing.isEmpty()) {
            send(missing, List.of());
          }
        });
  }

  /** A report of another kind, sent in order with the filter reports and retried alike. */
  void report(Report r) {
    submit(() -> send(r, () -> {}));
  }

  /** One call to the coordinator. */
  interface Report {
    void send() throws CoordinatorClient.CoordinatorException;
  }

  Set<String> acknowledged() {
    return Set.copyOf(acknowledged);
  }

  /** Whether a queued event or report has yet to reach the coordinator. */
  boolean pending() {
    return pending.get() > 0;
  }

  private void submit(Runnable task) {
    pending.incrementAndGet();
    try {
      thread.execute(
          () -> {
            try {
              task.run();
            } finally {
              pending.decrementAndGet();
            }
          });
    } catch (RuntimeException e) {
      pending.decrementAndGet(); // closed
    }
  }

  private void send(List<String> added, List<String> removed) {
    send(
        () -> coordinator.reportFilters(edge, added, removed),
        () -> {
          acknowledged.addAll(added);
          acknowledged.removeAll(removed);
          counters.filtersReported.add(added.size() + removed.size());
        });
  }

  private void send(Report r, Runnable done) {
    while (!closed) {
      try {
        r.send();
        done.run();
        return;
      } catch (CoordinatorClient.CoordinatorException e) {
        if (e.status == 404) {
          unknownEdge.run(); // registering again queues a report of what the coordinator lacks
          return;
        }
        if (e.status != 0 && e.status / 100 == 4) {
          LOG.warning("report refused: " + e.getMessage());
          return;
        }
        LOG.fine("filter report: " + e.getMessage() + "; retrying");
        try {
          Thread.sleep(RETRY); // back-off before asking an unavailable coordinator again
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
    try {
      thread.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
