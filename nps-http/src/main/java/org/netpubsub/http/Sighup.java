package org.netpubsub.http;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The process's one SIGHUP handler: every file that reloads on SIGHUP ({@code --auth}, the remote
 * northbound's clients file) registers here instead of installing its own handler and chaining the
 * one before it, so the order of start-up cannot lose a reload and a closed watcher stops being
 * called. The JVM's handler is installed on the first registration and stays. A process that
 * ignores SIGHUP (started under {@code nohup}) keeps ignoring it: the JVM installs no handler then,
 * and files reload by their poll only (logged once).
 */
public final class Sighup {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Sighup.class);
  private static final List<Runnable> HANDLERS = new CopyOnWriteArrayList<>();
  private static boolean installed; // guarded by Sighup.class
  private static boolean ignored; // guarded by Sighup.class: SIGHUP ignored by this process

  private Sighup() {}

  /**
   * Runs {@code handler} on every SIGHUP (on the JVM's signal thread, after the handlers registered
   * before it) until the returned handle is closed. A handler that throws does not stop the others.
   */
  public static AutoCloseable register(Runnable handler) {
    synchronized (Sighup.class) {
      if (!installed) {
        ignored = Signal.handle(new Signal("HUP"), s -> dispatch()) == SignalHandler.SIG_IGN;
        installed = true;
        if (ignored) {
          LOG.warn(
              "SIGHUP is ignored by this process (started under nohup?): files reload by"
                  + " their poll only");
        }
      }
    }
    HANDLERS.add(handler);
    return () -> HANDLERS.remove(handler);
  }

  /** Whether a SIGHUP reaches the handlers: false before the first registration or under nohup. */
  static synchronized boolean delivered() {
    return installed && !ignored;
  }

  static void dispatch() {
    for (Runnable h : HANDLERS) {
      try {
        h.run();
      } catch (RuntimeException e) {
        // a handler logs its own failures; one failing must not cost the others their reload
        LOG.warn("a SIGHUP handler failed", e);
      }
    }
  }
}
