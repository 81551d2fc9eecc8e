package org.netpubsub.controller.nbi;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One app's thread and event queue, as Ryu and ONOS give each app. The queue is bounded and a full
 * queue blocks the producer (the switch's southbound executor): a slow app slows the switches that
 * feed it instead of losing packet-ins or growing without limit.
 */
final class AppRunner {
  private static final System.Logger LOG = System.getLogger(AppRunner.class.getName());

  private final String name;
  private final BlockingQueue<Runnable> events;
  private final Thread thread;
  private final AtomicLong handled = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile boolean running = true;

  AppRunner(String name, int capacity) {
    this.name = name;
    this.events = new ArrayBlockingQueue<>(capacity);
    this.thread = new Thread(this::run, "nbi-app-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Queues an event for the app's thread; waits while the queue is full. */
  void submit(Runnable event) throws InterruptedException {
    events.put(event);
  }

  long handled() {
    return handled.get();
  }

  long failed() {
    return failed.get();
  }

  int queued() {
    return events.size();
  }

  void stop() {
    running = false;
    thread.interrupt();
  }

  private void run() {
    while (running) {
      Runnable event;
      try {
        event = events.take();
      } catch (InterruptedException e) {
        return;
      }
      try {
        event.run();
        handled.incrementAndGet();
      } catch (RuntimeException e) {
        // an app's bug costs that event only; the app keeps its thread
        failed.incrementAndGet();
        LOG.log(System.Logger.Level.WARNING, "app " + name + " failed on an event", e);
      }
    }
  }
}
