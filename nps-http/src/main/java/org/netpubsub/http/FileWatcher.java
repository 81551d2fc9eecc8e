package org.netpubsub.http;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads one configuration file when its contents change, checked every {@code poll}, on {@link
 * #reload} and (after {@link #onSighup}) on SIGHUP: {@code --auth}'s principals and the remote
 * northbound's clients file. Contents are compared, not modification times, so an edit within the
 * file system's time granularity is never missed. A file that cannot be read or parsed keeps the
 * configuration in force, is counted in {@link #failedReloads} and logged once per attempt (a file
 * left bad logs once per poll, as an operator watching the log needs).
 */
public final class FileWatcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileWatcher.class);

  /** Reads the file's bytes (bounded by the caller). */
  @FunctionalInterface
  public interface Reader {
    byte[] read() throws IOException;
  }

  /**
   * Parses and applies new contents, returning what it put in force for the log ("3 principals");
   * throws {@link IllegalArgumentException} (or any runtime exception) to keep the old one.
   */
  @FunctionalInterface
  public interface Loader {
    String apply(byte[] contents);
  }

  private final String name;
  private final String what;
  private final Reader reader;
  private final Loader loader;
  private final AtomicLong reloads = new AtomicLong();
  private final AtomicLong failedReloads = new AtomicLong();
  private byte[] loaded; // guarded by this
  private final Thread poller;
  private volatile AutoCloseable sighup;

  /**
   * Watches a file whose {@code current} contents are already in force.
   *
   * @param name the file as the log names it ({@code --nbi-remote-clients FILE})
   * @param what what the file holds, for the refusal's log line ("principals")
   * @param poll the check period; zero: never polled (reload by hand or SIGHUP)
   * @param thread the polling thread's name
   */
  public FileWatcher(
      String name,
      String what,
      byte[] current,
      Reader reader,
      Loader loader,
      Duration poll,
      String thread) {
    this.name = name;
    this.what = what;
    this.reader = reader;
    this.loader = loader;
    this.loaded = current.clone();
    long pollMs = poll.toMillis();
    this.poller =
        poll.isZero() ? null : Thread.ofPlatform().daemon().name(thread).start(() -> poll(pollMs));
  }

  /** Also reloads on every SIGHUP, through the process's one handler ({@link Sighup}). */
  public FileWatcher onSighup() {
    if (sighup == null) {
      sighup = Sighup.register(this::reload);
    }
    return this;
  }

  /**
   * Reloads now if the contents changed: true if what is in force is the file's (unchanged or
   * applied), false if it was refused (counted and logged).
   */
  public synchronized boolean reload() {
    String applied;
    byte[] b;
    try {
      b = reader.read();
      if (Arrays.equals(b, loaded)) {
        return true;
      }
      applied = loader.apply(b);
    } catch (IOException | RuntimeException e) {
      failedReloads.incrementAndGet();
      LOG.warn("{}: not reloaded, the {} in force stay: {}", name, what, e.getMessage());
      return false;
    }
    loaded = b;
    reloads.incrementAndGet();
    LOG.info("{}: reloaded, {}", name, applied);
    return true;
  }

  /** Reloads that took effect. */
  public long reloads() {
    return reloads.get();
  }

  /** Reloads refused (unreadable or bad contents); each attempt counts. */
  public long failedReloads() {
    return failedReloads.get();
  }

  private void poll(long pollMs) {
    try {
      while (true) {
        Thread.sleep(pollMs);
        reload();
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  @Override
  public void close() {
    if (poller != null) {
      poller.interrupt();
    }
    AutoCloseable s = sighup;
    if (s != null) {
      try {
        s.close();
      } catch (Exception e) {
        throw new IllegalStateException(e); // Sighup's handle throws nothing
      }
    }
  }
}
