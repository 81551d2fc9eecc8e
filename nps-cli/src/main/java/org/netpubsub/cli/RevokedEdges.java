package org.netpubsub.cli;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.netpubsub.edge.overlay.ZnodePaths;

/**
 * {@code nps overlay routing-broker --revoked-edges FILE}: the edges whose datagrams are refused
 * whatever key they carry (docs/security.md, "Per-edge keys"), one edge name a line, {@code #}
 * comments. Read at start (a bad file is one line and exit 2) and again every second when its text
 * changed; a reload that fails keeps the edges in force and logs why once per change.
 */
final class RevokedEdges {
  private static final Logger LOG = Logger.getLogger(RevokedEdges.class.getName());
  private static final String FLAG = "--revoked-edges";

  private RevokedEdges() {}

  /** The names in {@code text}; errors name the line, never more of the file. */
  static Set<String> parse(String text, String what) {
    Set<String> out = new LinkedHashSet<>();
    int line = 0;
    for (String l : text.split("\n", -1)) {
      line++;
      String s = l.strip();
      if (s.isEmpty() || s.startsWith("#")) {
        continue;
      }
      try {
        out.add(ZnodePaths.checkName(s));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(what + " line " + line + ": not an edge name");
      }
    }
    return out;
  }

  static Set<String> read(Path file) {
    return parse(BoundedInput.file(file, FLAG), FLAG + " " + file);
  }

  /**
   * Gives {@code apply} the file's edges now, then again whenever its text changes; the returned
   * executor stops watching when shut down.
   */
  static ScheduledExecutorService watch(Path file, Consumer<Set<String>> apply) {
    String[] last = {BoundedInput.file(file, FLAG)};
    apply.accept(parse(last[0], FLAG + " " + file));
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-revoked-edges").unstarted(r));
    s.scheduleWithFixedDelay(
        () -> {
          String text;
          try {
            text = BoundedInput.file(file, FLAG);
          } catch (RuntimeException e) {
            return; // missing for a moment during a replacement: the edges in force stay
          }
          if (text.equals(last[0])) {
            return;
          }
          last[0] = text;
          try {
            Set<String> edges = parse(text, FLAG + " " + file);
            apply.accept(edges);
            LOG.info("revoked edges reloaded: " + edges.size());
          } catch (IllegalArgumentException e) {
            LOG.warning("revoked edges not reloaded, the previous stay: " + e.getMessage());
          }
        },
        1,
        1,
        TimeUnit.SECONDS);
    return s;
  }
}
