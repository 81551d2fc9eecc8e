package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.netpubsub.client.Delivery;

/**
 * Prints {@code nps sub}'s delivery lines on a thread of its own. The subscriber's receive thread
 * stamps each datagram's arrival; had it also written the line (JSON serialisation, one write and
 * flush per line into a pipe that may be full), every datagram queued behind it would have been
 * stamped late by that much. Here it only enqueues: the printer writes whatever has queued up and
 * flushes once per batch, so a burst costs one write, not one per event. The queue is bounded: when
 * stdout falls that far behind, the receive thread waits as it did when it wrote itself, and
 * datagrams wait in the socket's receive buffer instead of in memory without bound.
 */
final class DeliveryPrinter implements AutoCloseable {
  private static final Object END = new Object();
  private static final int CAPACITY = 65_536; // lines: the subscriber's own queue's default

  private final PrintWriter out;
  private final Function<Delivery, Object> line;
  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>(CAPACITY);
  private final Thread thread;

  DeliveryPrinter(PrintWriter out, Function<Delivery, Object> line) {
    this.out = out;
    this.line = line;
    this.thread = Thread.ofPlatform().daemon().name("nps-sub-printer").start(this::run);
  }

  /** Queues one delivery's line; returns at once unless {@link #CAPACITY} lines wait already. */
  void print(Delivery d) {
    try {
      queue.put(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the subscriber is closing
    }
  }

  private void run() {
    List<Object> batch = new ArrayList<>();
    try {
      while (true) {
        batch.add(queue.take());
        queue.drainTo(batch);
        for (Object o : batch) {
          if (o == END) {
            out.flush();
            return;
          }
          JsonOutput.printLine(out, line.apply((Delivery) o), false);
        }
        batch.clear();
        out.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Prints every queued line, then returns (the lines come before anything printed after). */
  @Override
  public void close() throws InterruptedException {
    if (thread.isAlive()) {
      queue.put(END);
      thread.join();
    }
  }
}
