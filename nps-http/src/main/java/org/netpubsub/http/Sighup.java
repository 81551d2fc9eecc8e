package org.netpubsub.http;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import sun.misc.Signal;

/**
 * The process's one SIGHUP handler: every file that reloads on SIGHUP ({@code --auth}, the remote
 * northbound's clients file) registers here instead of installing its own handler and chaining the
 * one before it, so the order of start-up cannot lose a reload and a closed watcher stops being
 * called. The JVM's handler is installed on the first registration and stays.
 */
public final class Sighup {
  private static final List<Runnable> HANDLERS = new CopyOnWriteArrayList<>();
  private static boolean installed; // guarded by Sighup.class

  private Sighup() {}

  /**
   * Runs {@code handler} on every SIGHUP (on the JVM's signal thread, after the handlers registered
   * before it) until the returned handle is closed. A handler that throws does not stop the others.
   */
  public static AutoCloseable register(Runnable handler) {
    synchronized (Sighup.class) {
      if (!installed) {
        Signal.handle(new Signal("HUP"), s -> dispatch());
        installed = true;
      }
    }
    HANDLERS.add(handler);
    return () -> HANDLERS.remove(handler);
  }

  static void dispatch() {
    for (Runnable h : HANDLERS) {
      try {
        h.run();
      } catch (RuntimeException e) {
        // a handler logs its own failures; one failing must not cost the others their reload
        org.slf4j.LoggerFactory.getLogger(Sighup.class).warn("a SIGHUP handler failed", e);
      }
    }
  }
}
