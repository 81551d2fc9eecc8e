package org.netpubsub.cli;

import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * A small text file an agent or broker reloads while it runs (revoked edges, senders' keys): read
 * now, then every second, and applied again whenever its text changed. A reload that does not parse
 * keeps what is in force and logs why once per change; a file missing for a moment (a replacement)
 * is skipped. The parser's errors name the file and line, never its text (keys).
 */
final class WatchedFile {
  private static final Logger LOG = Logger.getLogger(WatchedFile.class.getName());

  private WatchedFile() {}

  /**
   * Gives {@code apply} the file's parsed content now, then again whenever its text changes; the
   * returned executor stops watching when shut down. {@code flag} names the option in messages.
   */
  static <T> ScheduledExecutorService watch(
      Path file, String flag, Function<String, T> parse, Consumer<T> apply) {
    String[] last = {BoundedInput.file(file, flag)};
    apply.accept(parse.apply(last[0]));
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-watch" + flag).unstarted(r));
    s.scheduleWithFixedDelay(
        () -> {
          String text;
          try {
            text = BoundedInput.file(file, flag);
          } catch (RuntimeException e) {
            return; // missing for a moment during a replacement: what is in force stays
          }
          if (text.equals(last[0])) {
            return;
          }
          last[0] = text;
          try {
            apply.accept(parse.apply(text));
            LOG.info(flag + " " + file + " reloaded");
          } catch (IllegalArgumentException e) {
            LOG.warning(flag + " not reloaded, the previous stays: " + e.getMessage());
          }
        },
        1,
        1,
        TimeUnit.SECONDS);
    return s;
  }
}
