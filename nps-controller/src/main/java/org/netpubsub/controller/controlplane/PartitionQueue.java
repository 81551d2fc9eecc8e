package org.netpubsub.controller.controlplane;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.ConfigurationDelta;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.topology.Topology;

/**
 * One partition at run time: its CP-config, its FIFO queue of partial requests and its owner. The
 * {@code scheduled} flag makes processing exclusive: whoever sets it holds the partition until it
 * clears it, so the queue is served in order by one configurator at a time, and a migration (a new
 * owner) takes effect at the next slice. The CP-config itself is read and replaced under the
 * object's monitor (briefly: never while waiting for a switch), so that the controller can read
 * flows and rebuild on a new topology while configurators run.
 */
final class PartitionQueue {
  /** A partial request and the request it belongs to. */
  record Part(ControlRequest request, PendingRequest of) {}

  final Dz partition;
  private Configurator config; // guarded by this
  private long epoch; // the topology epoch config was built for; guarded by this
  private final ConcurrentLinkedQueue<Part> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger length = new AtomicInteger();
  final AtomicBoolean scheduled = new AtomicBoolean();
  final AtomicLong arrivals = new AtomicLong();
  volatile int owner;

  PartitionQueue(Dz partition, Configurator config, int owner) {
    this.partition = partition;
    this.config = config;
    this.owner = owner;
  }

  /** Applies one part; returns its delta and the epoch of the topology it was computed on. */
  synchronized Applied apply(ControlRequest part) {
    return new Applied(part.applyTo(config), epoch);
  }

  record Applied(ConfigurationDelta delta, long epoch) {}

  /** One switch's content flows now. */
  synchronized List<FlowEntry> flows(long dpid) {
    return config.flows(dpid);
  }

  synchronized java.util.SortedMap<
          Dz, java.util.SortedSet<org.netpubsub.network.pleroma.EventEgress>>
      table(long dpid) {
    return new java.util.TreeMap<>(config.table(dpid));
  }

  synchronized int flowCount() {
    return config.flowCount();
  }

  /** Replays the partition's requests on the next topology. */
  synchronized void rebuild(Topology next, long nextEpoch) {
    config = config.rebuiltOn(next);
    epoch = nextEpoch;
  }

  void add(Part p) {
    queue.add(p);
    length.incrementAndGet();
    arrivals.incrementAndGet();
  }

  /** Up to {@code n} parts from the head, in order. */
  List<Part> take(int n) {
    List<Part> out = new ArrayList<>(Math.min(n, 64));
    for (Part p; out.size() < n && (p = queue.poll()) != null; ) {
      out.add(p);
      length.decrementAndGet();
    }
    return out;
  }

  int length() {
    return length.get();
  }

  boolean isEmpty() {
    return queue.isEmpty();
  }
}
