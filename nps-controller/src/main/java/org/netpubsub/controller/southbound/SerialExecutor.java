package org.netpubsub.controller.southbound;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/**
 * Runs tasks one at a time, in submission order, on a shared backing executor: one per switch, so a
 * switch's events stay ordered and a slow listener of one switch delays no other switch.
 */
final class SerialExecutor implements Executor {
  private static final System.Logger LOG = System.getLogger(SerialExecutor.class.getName());

  private final Executor backing;
  private final Queue<Runnable> tasks = new ArrayDeque<>();
  private boolean running;

  SerialExecutor(Executor backing) {
    this.backing = backing;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (tasks) {
      tasks.add(task);
      if (running) {
        return;
      }
      running = true;
    }
    try {
      backing.execute(this::drain);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // The server is closing: events no longer reach listeners.
      synchronized (tasks) {
        tasks.clear();
        running = false;
      }
    }
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (tasks) {
        next = tasks.poll();
        if (next == null) {
          running = false;
          return;
        }
      }
      try {
        next.run();
      } catch (RuntimeException | Error e) {
        // Callers guard their own tasks; this keeps the queue alive if one did not.
        LOG.log(System.Logger.Level.ERROR, "callback failed", e);
      }
    }
  }
}
