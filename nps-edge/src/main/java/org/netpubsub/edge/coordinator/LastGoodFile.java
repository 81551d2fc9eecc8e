package org.netpubsub.edge.coordinator;

import java.io.IOException;
import java.nio.file.Path;
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
    T now;
    try {
      now = reader.read(file);
    } catch (IOException | IllegalArgumentException e) {
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
