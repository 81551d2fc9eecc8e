package org.netpubsub.cli;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.netpubsub.edge.coordinator.RevokedList;

/**
 * {@code nps overlay routing-broker --revoked-edges FILE} (and {@code nps edge-agent}'s): the edges
 * whose datagrams are refused whatever key they carry (docs/security.md, "Per-edge keys"), one edge
 * name a line, {@code #} comments. Read at start (a bad file is one line and exit 2) and again
 * every second when its text changed; a reload that fails keeps the edges in force and logs why
 * once per change.
 */
final class RevokedEdges {
  private static final String FLAG = "--revoked-edges";

  private RevokedEdges() {}

  /** The names in {@code text}; errors name the line, never more of the file. */
  static Set<String> parse(String text, String what) {
    return RevokedList.parse(text, what);
  }

  static Set<String> read(Path file) {
    return parse(BoundedInput.file(file, FLAG), FLAG + " " + file);
  }

  /**
   * Gives {@code apply} the file's edges now, then again whenever its text changes ({@link
   * WatchedFile}); the returned executor stops watching when shut down.
   */
  static ScheduledExecutorService watch(Path file, Consumer<Set<String>> apply) {
    return WatchedFile.watch(file, FLAG, t -> parse(t, FLAG + " " + file), apply);
  }
}
