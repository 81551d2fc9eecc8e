package org.netpubsub.controller.controlplane;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Dispatcher;
import org.netpubsub.network.controlplane.OverloadMonitor;
import org.netpubsub.network.controlplane.PartitionAssignment;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.controlplane.SliceOrder;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.EventEgress;
import org.netpubsub.network.topology.Topology;

/**
 * PLEROMA's partitioned control plane (§IV-A) in one process: a dispatcher splits each request at
 * partition borders and queues the parts; n configurator threads each serve the partitions they
 * own, one slice at a time, reordered by covering (§IV-C); each part's flow changes go to the
 * switches and count as done only when acknowledged. With SPA-LB a monitor samples the queues and
 * migrates partitions away from rising overload.
 *
 * <p>Configurators never share a partition, so they never take conflicting actions (Definition 1)
 * and no lock guards the switches. Each CP-config's monitor is held only while a part is applied to
 * it, so that the controller can read flows and rebuild on a new topology meanwhile. A partition is
 * scheduled on its owner's ready queue when it has work; a worker that finds a partition migrated
 * away passes it on.
 */
public final class ControlPlane implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ControlPlane.class.getName());
  private volatile Topology topology;
  private volatile long epoch; // bumped by each topology change
  private final ControlPlaneSettings settings;
  private final FlowUpdates updates;
  private final Dispatcher dispatcher;
  private final Map<Dz, PartitionQueue> queues = new LinkedHashMap<>();
  private final List<Worker> workers = new ArrayList<>();
  private final OverloadMonitor monitor;
  private final ScheduledExecutorService monitorTimer;
  private final AtomicLong flowMods = new AtomicLong();
  private final AtomicLong migrations = new AtomicLong();
  private final AtomicLong resyncs = new AtomicLong();
  private volatile boolean running = true;

  /**
   * Starts the configurators. {@code assignment} maps every partition to a configurator (see {@link
   * PartitionAssignment}); null deals them out round-robin.
   */
  public ControlPlane(
      Topology topology,
      ControlPlaneSettings settings,
      FlowUpdates updates,
      Map<Dz, Integer> assignment) {
    this.topology = topology;
    this.settings = settings;
    this.updates = updates;
    Partitions partitions = settings.partitions();
    this.dispatcher = new Dispatcher(partitions);
    Map<Dz, Integer> owners =
        assignment != null
            ? assignment
            : PartitionAssignment.roundRobin(partitions.all(), settings.configurators());
    for (Dz p : partitions.all()) {
      Integer owner = owners.get(p);
      if (owner == null || owner < 0 || owner >= settings.configurators()) {
        throw new IllegalArgumentException("partition " + p + " has no valid configurator");
      }
      queues.put(p, new PartitionQueue(p, Configurator.on(topology), owner));
    }
    for (int i = 0; i < settings.configurators(); i++) {
      workers.add(new Worker(i));
    }
    workers.forEach(w -> w.thread.start());
    if (settings.balancing() == ControlPlaneSettings.Balancing.SPA_LB) {
      monitor =
          new OverloadMonitor(
              settings.configurators(), settings.overloadThreshold(), settings.risingSamples());
      monitorTimer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "control-plane-monitor");
                t.setDaemon(true);
                return t;
              });
      long period = settings.monitorPeriod().toNanos();
      monitorTimer.scheduleAtFixedRate(this::balance, period, period, TimeUnit.NANOSECONDS);
    } else {
      monitor = null;
      monitorTimer = null;
    }
  }

  /**
   * Dispatches a request; the future completes when all its parts are processed and acknowledged. A
   * request from an unknown host, a duplicate id or a withdrawal of an unknown id is refused at
   * once with IllegalArgumentException and queues nothing.
   */
  public CompletableFuture<RequestDone> submit(ControlRequest r) {
    if (!running) {
      throw new IllegalStateException("the control plane is closed");
    }
    if (r.kind().adds() && topology.host(r.host()).isEmpty()) {
      throw new IllegalArgumentException("host " + r.host() + " is not known");
    }
    long now = System.nanoTime();
    PendingRequest pending;
    List<PartitionQueue> touched = new ArrayList<>();
    // One lock for split and enqueue: every partition queue receives parts in dispatch order.
    synchronized (dispatcher) {
      SortedMap<Dz, ControlRequest> parts = dispatcher.split(r);
      pending = new PendingRequest(r.id(), now, parts.size());
      parts.forEach(
          (p, part) -> {
            PartitionQueue q = queues.get(p);
            q.add(new PartitionQueue.Part(part, pending));
            touched.add(q);
          });
    }
    touched.forEach(this::schedule);
    return pending.done;
  }

  /**
   * The topology changed: every CP-config replays its requests on the next one (briefly holding
   * each partition; configurators finish their current wait first only where they must). Flow-mods
   * computed on the old topology and still unsent carry the old epoch, and a {@link FlowUpdates}
   * that brings the switches to the new state itself drops them ({@link #epoch}).
   */
  public void topologyChanged(Topology next) {
    long e = epoch + 1;
    topology = next;
    for (PartitionQueue q : queues.values()) {
      q.rebuild(next, e);
    }
    epoch = e;
  }

  /** The number of topology changes so far: the epoch of what configurators compute now. */
  public long epoch() {
    return epoch;
  }

  public Topology topology() {
    return topology;
  }

  /** Moves a partition to another configurator; it takes effect at the partition's next slice. */
  public void migrate(Dz partition, int to) {
    PartitionQueue q = queues.get(partition);
    if (q == null || to < 0 || to >= workers.size()) {
      throw new IllegalArgumentException("cannot move " + partition + " to configurator " + to);
    }
    if (q.owner != to) {
      q.owner = to;
      migrations.incrementAndGet();
    }
  }

  /** Each partition's configurator now. */
  public SortedMap<Dz, Integer> assignment() {
    SortedMap<Dz, Integer> out = new TreeMap<>();
    queues.forEach((p, q) -> out.put(p, q.owner));
    return out;
  }

  /** Requests that arrived per partition so far (the popularity history of §IV-A 2). */
  public SortedMap<Dz, Long> arrivals() {
    SortedMap<Dz, Long> out = new TreeMap<>();
    queues.forEach((p, q) -> out.put(p, q.arrivals.get()));
    return out;
  }

  /** Per configurator, the queue length of each partition it owns (its load l_i is the sum). */
  public List<Map<Dz, Integer>> queueLengths() {
    List<Map<Dz, Integer>> out = new ArrayList<>();
    for (int i = 0; i < workers.size(); i++) {
      out.add(new TreeMap<>());
    }
    queues.forEach((p, q) -> out.get(q.owner).put(p, q.length()));
    return out;
  }

  public long flowModsSent() {
    return flowMods.get();
  }

  public long migrations() {
    return migrations.get();
  }

  /** Corrections after a missing acknowledgement (§IV-B). */
  public long resyncs() {
    return resyncs.get();
  }

  /**
   * One switch's content flows over all CP-configs. Consistent only when no request is in flight
   * (the CP-configs belong to their configurators while they run).
   */
  public SortedMap<Dz, SortedSet<EventEgress>> table(long dpid) {
    SortedMap<Dz, SortedSet<EventEgress>> out = new TreeMap<>();
    queues.values().forEach(q -> out.putAll(q.table(dpid)));
    return out;
  }

  /** {@link #table} as OpenFlow entries. */
  public List<FlowEntry> flows(long dpid) {
    return ContentFlows.entries(table(dpid));
  }

  public int flowCount() {
    return queues.values().stream().mapToInt(PartitionQueue::flowCount).sum();
  }

  @Override
  public void close() {
    running = false;
    if (monitorTimer != null) {
      monitorTimer.shutdownNow();
    }
    for (Worker w : workers) {
      w.thread.interrupt();
    }
    for (Worker w : workers) {
      try {
        w.thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void schedule(PartitionQueue q) {
    if (!q.isEmpty() && q.scheduled.compareAndSet(false, true)) {
      workers.get(q.owner).ready.add(q);
    }
  }

  private void balance() {
    try {
      for (OverloadMonitor.Migration m : monitor.sample(queueLengths())) {
        // The sample is a moment old: move only what is still where the monitor saw it.
        if (queues.get(m.partition()).owner == m.from()) {
          migrate(m.partition(), m.to());
        }
      }
    } catch (RuntimeException e) {
      // a bug in balancing must not cancel the monitor's later samples
      LOG.log(System.Logger.Level.ERROR, "partition balancing failed", e);
    }
  }

  /** One configurator: serves the partitions on its ready queue a slice at a time. */
  private final class Worker {
    final int index;
    final LinkedBlockingQueue<PartitionQueue> ready = new LinkedBlockingQueue<>();
    final Thread thread;

    Worker(int index) {
      this.index = index;
      this.thread = new Thread(this::run, "configurator-" + index);
      thread.setDaemon(true);
    }

    private void run() {
      while (running) {
        PartitionQueue q;
        try {
          q = ready.take();
        } catch (InterruptedException e) {
          return;
        }
        if (q.owner != index) {
          workers.get(q.owner).ready.add(q); // migrated while waiting: still scheduled
          continue;
        }
        processSlice(q);
        q.scheduled.set(false);
        schedule(q); // more work (or work that arrived meanwhile) goes to the current owner
      }
    }

    private void processSlice(PartitionQueue q) {
      List<PartitionQueue.Part> slice = q.take(settings.sliceSize());
      List<PartitionQueue.Part> ordered = slice;
      if (slice.size() > 1) {
        Map<ControlRequest, PartitionQueue.Part> byRequest = new IdentityHashMap<>();
        slice.forEach(p -> byRequest.put(p.request(), p));
        ordered =
            SliceOrder.reorder(slice.stream().map(PartitionQueue.Part::request).toList()).stream()
                .map(byRequest::get)
                .toList();
      }
      for (PartitionQueue.Part part : ordered) {
        try {
          PartitionQueue.Applied applied = q.apply(part.request());
          int mods = apply(q, applied);
          part.of()
              .partDone(
                  mods,
                  applied.delta().changes().keySet(),
                  applied.delta().paths(),
                  System.nanoTime());
        } catch (InterruptedException e) {
          part.of().partFailed(e);
          Thread.currentThread().interrupt();
          return;
        } catch (RuntimeException e) {
          part.of().partFailed(e); // a bug: the request reports it, the configurator goes on
        }
      }
    }

    /** Carries the part out ({@link AcknowledgedSend}); returns the flow-mods sent. */
    private int apply(PartitionQueue q, PartitionQueue.Applied applied)
        throws InterruptedException {
      int n =
          AcknowledgedSend.sendAndAwait(
              updates,
              applied.delta().flowMods(),
              applied.epoch(),
              q.partition,
              q::flows,
              settings.ackTimeout(),
              () -> running,
              resyncs::incrementAndGet);
      flowMods.addAndGet(n);
      return n;
    }
  }

  /** The content flows of one partition: those whose destination prefix lies inside it. */
  static Predicate<FlowEntry> owned(Dz partition) {
    MaskedIpv6 prefix = ContentFlows.match(partition).ipv6Dst();
    return f ->
        f.cookie() == ContentFlows.COOKIE
            && f.match().ipv6Dst() != null
            && prefix.covers(f.match().ipv6Dst());
  }
}
