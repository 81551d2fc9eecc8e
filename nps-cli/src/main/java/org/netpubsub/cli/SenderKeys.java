package org.netpubsub.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.overlay.OwnKeyOnly;

/**
 * {@code nps edge-agent --own-key-only --sender-keys FILE}: the own keys of the agents an agent
 * receives from (docs/security-datagrams.md, "Per-agent keys (SNAPS)"), in the pair-key file's
 * format ({@code PEER HEX [HEX...]} a line, a key per deployment key, the first signing; {@code nps
 * overlay keys edge --senders}). Read at start (a bad file is one line and exit 2) and again every
 * second when its text changed ({@link WatchedFile}): removing a sender's line shuts it out at the
 * next reload. Errors name the file and line, never a key.
 */
final class SenderKeys {
  private static final String FLAG = "--sender-keys";

  private SenderKeys() {}

  static Map<String, DatagramAuth> parse(String text, Path file) {
    if (text.length() > PairKeysFile.MAX_BYTES) {
      throw new IllegalArgumentException(
          FLAG + " " + file + ": over " + PairKeysFile.MAX_BYTES + " B");
    }
    try {
      return OwnKeyOnly.parse(text).pairs(); // the same format; here each key is a sender's own
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(FLAG + " " + file + " " + e.getMessage());
    }
  }

  static Map<String, DatagramAuth> read(Path file) {
    return parse(BoundedInput.file(file, FLAG), file);
  }

  static ScheduledExecutorService watch(Path file, Consumer<Map<String, DatagramAuth>> apply) {
    return WatchedFile.watch(file, FLAG, t -> parse(t, file), apply);
  }
}
