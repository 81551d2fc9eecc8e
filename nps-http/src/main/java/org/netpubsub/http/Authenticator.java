package org.netpubsub.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The principals of a server, from one file ({@code --auth FILE}), reloaded when the file changes
 * (checked every {@code poll}) or on {@link #reload} (SIGHUP in the CLI). A reload that fails keeps
 * the principals in force and logs why; a reload changes who may send new requests, never what
 * stands (standing subscriptions keep their covers).
 */
public final class Authenticator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
  static final int MAX_BYTES = 1 << 20;

  private final Path file;
  private final Consumer<String> regions;
  private final AtomicReference<Principals> current = new AtomicReference<>();
  private final AtomicLong reloads = new AtomicLong();
  private final AtomicLong failedReloads = new AtomicLong();
  private volatile byte[] loaded = new byte[0];
  private final Thread watcher;

  private Authenticator(Path file, Consumer<String> regions, Duration poll) throws IOException {
    this.file = file;
    this.regions = regions;
    byte[] b = read(file);
    current.set(parse(b));
    loaded = b;
    this.watcher =
        poll.isZero()
            ? null
            : Thread.ofPlatform()
                .daemon()
                .name("nps-auth-watch")
                .start(() -> watch(poll.toMillis()));
  }

  /**
   * Loads {@code file} (an {@link IllegalArgumentException} naming the file, the principal and the
   * field if it is bad) and watches it every {@code poll} (zero: never; reload by hand).
   */
  public static Authenticator load(Path file, Consumer<String> regions, Duration poll)
      throws IOException {
    return new Authenticator(file, regions, poll);
  }

  /** The principal holding {@code token}, if any. */
  public Optional<Principal> principal(String token) {
    return current.get().byToken(token);
  }

  /** Reloads the file now: true if it is in force, false if it was refused (logged). */
  public boolean reload() {
    byte[] b;
    Principals p;
    try {
      b = read(file);
      if (Arrays.equals(b, loaded)) {
        return true;
      }
      p = parse(b);
    } catch (IOException | IllegalArgumentException e) {
      failedReloads.incrementAndGet();
      LOG.warn("{}: not reloaded, the principals in force stay: {}", file, e.getMessage());
      return false;
    }
    current.set(p);
    loaded = b;
    reloads.incrementAndGet();
    LOG.info("{}: reloaded, {} principals", file, p.size());
    return true;
  }

  /** Reloads that took effect, and reloads refused. */
  public long reloads() {
    return reloads.get();
  }

  public long failedReloads() {
    return failedReloads.get();
  }

  private void watch(long pollMs) {
    try {
      while (true) {
        Thread.sleep(pollMs);
        reload();
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  private Principals parse(byte[] b) {
    try {
      return Principals.parse(new String(b, StandardCharsets.UTF_8), regions);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** The file's bytes, measured as read (a device or a growing file cannot exhaust memory). */
  private static byte[] read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = in.readNBytes(MAX_BYTES + 1);
      if (b.length > MAX_BYTES) {
        throw new IllegalArgumentException(file + ": larger than " + MAX_BYTES + " bytes");
      }
      return b;
    }
  }

  @Override
  public void close() {
    if (watcher != null) {
      watcher.interrupt();
    }
  }
}
