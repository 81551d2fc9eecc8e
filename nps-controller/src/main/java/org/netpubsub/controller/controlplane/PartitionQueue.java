package org.netpubsub.controller.controlplane;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.pleroma.Configurator;

/**
 * One partition at run time: its CP-config, its FIFO queue of partial requests and its owner. The
 * {@code scheduled} flag makes processing exclusive: whoever sets it holds the partition until it
 * clears it, so the queue is served in order by one configurator at a time, and a migration (a new
 * owner) takes effect at the next slice.
 */
final class PartitionQueue {
  /** A partial request and the request it belongs to. */
  record Part(ControlRequest request, PendingRequest of) {}

  final Dz partition;
  final Configurator config;
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
