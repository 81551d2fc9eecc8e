package org.netpubsub.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The principals of a server, from one file ({@code --auth FILE}), reloaded when the file changes
 * (checked every {@code poll}, by a {@link FileWatcher}) or on {@link #reload} (SIGHUP in the CLI,
 * {@link #onSighup}). A reload that fails keeps the principals in force, is counted and logs why. A
 * reload that took effect changes who may send new requests, and is told to every {@link #onReload}
 * listener: the controller re-cuts the standing requests of principals whose regions changed
 * (docs/security-rest.md).
 */
public final class Authenticator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
  static final int MAX_BYTES = 1 << 20;

  private final Path file;
  private final Consumer<String> regions;
  private final AtomicReference<Principals> current = new AtomicReference<>();
  private final FileWatcher watcher;
  private final List<Consumer<Principals>> listeners = new CopyOnWriteArrayList<>();

  private Authenticator(Path file, Consumer<String> regions, Duration poll) throws IOException {
    this.file = file;
    this.regions = regions;
    byte[] b = read(file);
    current.set(parse(b));
    this.watcher =
        new FileWatcher(
            file.toString(),
            "principals",
            b,
            () -> read(file),
            next -> {
              Principals p = parse(next);
              current.set(p);
              tell(p);
              return p.size() + " principals";
            },
            poll,
            "nps-auth-watch");
  }

  /**
   * Loads {@code file} (an {@link IllegalArgumentException} naming the file, the principal and the
   * field if it is bad) and watches it every {@code poll} (zero: never; reload by hand).
   */
  public static Authenticator load(Path file, Consumer<String> regions, Duration poll)
      throws IOException {
    return new Authenticator(file, regions, poll);
  }

  /** Also reloads on every SIGHUP (the CLI's servers). */
  public Authenticator onSighup() {
    watcher.onSighup();
    return this;
  }

  /**
   * Calls {@code listener} with the new principals after each reload that took effect (on the
   * reloading thread: the watcher's, SIGHUP's or {@link #reload}'s caller), never after a refused
   * one. A listener that throws is logged; the reload stays in force.
   */
  public Authenticator onReload(Consumer<Principals> listener) {
    listeners.add(listener);
    return this;
  }

  private void tell(Principals p) {
    for (Consumer<Principals> l : listeners) {
      try {
        l.accept(p);
      } catch (RuntimeException e) {
        LOG.warn("{}: a reload listener failed: {}", file, e.toString());
      }
    }
  }

  /** The principals in force. */
  public Principals principals() {
    return current.get();
  }

  /** The principal holding {@code token}, if any. */
  public Optional<Principal> principal(String token) {
    return current.get().byToken(token);
  }

  /** Reloads the file now: true if it is in force, false if it was refused (logged). */
  public boolean reload() {
    return watcher.reload();
  }

  /** Reloads that took effect, and reloads refused. */
  public long reloads() {
    return watcher.reloads();
  }

  public long failedReloads() {
    return watcher.failedReloads();
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
    watcher.close();
  }
}
