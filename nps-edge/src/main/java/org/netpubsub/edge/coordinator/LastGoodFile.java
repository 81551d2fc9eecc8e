package org.netpubsub.edge.coordinator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.ToIntFunction;
import java.util.logging.Logger;

/**
 * A file the coordinator reads again at each use, so an operator changes what it serves by editing
 * it ({@link ServedKeys}, {@link RevokedList}). A file that stops parsing, or cannot be read for a
 * moment (replaced by a rename), keeps the last good contents: logged once per change of reason and
 * counted. A change is logged by {@code changed}, which must not print secrets.
 *
 * <p>The file is read again only when its modification time, size or identity (a rename puts
 * another file in its place) changed since the last good read ({@link Stamp}), so a use costs one
 * {@code stat} (stop 44: the coordinator read its revoked edges on every registration and report).
 * A file modified within {@link #RACY} of that read is read again each time until it is older: a
 * second edit within the file system's timestamp granule (a few ms on Linux) and of the same size
 * would otherwise go unseen (git's "racy clean" rule).
 */
final class LastGoodFile<T> {
  /** Reads and checks the file; errors name the file and line, never its text. */
  interface Reader<T> {
    T read(Path file) throws IOException;
  }

  private final Logger log;
  private final Path file;
  private final Reader<T> reader;
  private final String what;
  private final ToIntFunction<T> size;
  private final BiPredicate<T, T> same;
  private final BiFunction<T, T, String> changed; // (held, now) -> the line logged
  private final AtomicLong invalid = new AtomicLong();
  private T held;
  private String lastError;
  private Stamp read; // the file's stamp at the last good read, if it may be trusted

  /**
   * How recent a modification must be, at the read, for the stamp not to be trusted: more than any
   * file system's timestamp granule here (ext4 and tmpfs: one kernel tick; FAT: 2 s).
   */
  static final long RACY = 2_000;

  /** What a stat says of the file: the read is skipped while it is unchanged. */
  private record Stamp(long modifiedMillis, long modifiedNanos, long size, Object key) {
    static Stamp of(Path file) {
      try {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        java.time.Instant m = a.lastModifiedTime().toInstant();
        return new Stamp(m.toEpochMilli(), m.getNano(), a.size(), a.fileKey());
      } catch (IOException | RuntimeException e) {
        return null; // missing for a moment: the read below says why
      }
    }
  }

  LastGoodFile(
      Logger log,
      Path file,
      T first,
      Reader<T> reader,
      String what,
      ToIntFunction<T> size,
      BiPredicate<T, T> same,
      BiFunction<T, T, String> changed) {
    this.log = log;
    this.file = file;
    this.held = first;
    this.reader = reader;
    this.what = what;
    this.size = size;
    this.same = same;
    this.changed = changed;
  }

  /** The contents now: the file's, or the last good ones if it is bad now. */
  synchronized T get() {
    Stamp stamp = Stamp.of(file);
    if (stamp != null && stamp.equals(read)) {
      return held;
    }
    T now;
    try {
      now = reader.read(file);
    } catch (IOException | IllegalArgumentException e) {
      read = null; // a bad file is read again at each use, as before: each read counted
      invalid.incrementAndGet();
      String why =
          e instanceof IOException ? "cannot read " + file + " (" + e + ")" : e.getMessage();
      if (!why.equals(lastError)) {
        log.warning(what + ": keeping the " + size.applyAsInt(held) + " held: " + why);
        lastError = why;
      }
      return held;
    }
    lastError = null;
    // trusted only if the file was already older than any timestamp granule when it was read
    read =
        stamp != null && System.currentTimeMillis() - stamp.modifiedMillis() > RACY ? stamp : null;
    if (!same.test(now, held)) {
      log.info(changed.apply(held, now));
      held = now;
    }
    return held;
  }

  /** Reads of the file that failed and kept the contents held. */
  long invalidReads() {
    return invalid.get();
  }
}
