package org.netpubsub.edge.coordinator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.logging.Logger;
import org.netpubsub.edge.overlay.ZnodePaths;

/**
 * The edges the coordinator has revoked ({@code nps edge-coordinator --revoked-edges FILE},
 * docs/security-datagrams.md, "Per-agent keys from the coordinator"): one edge name a line, {@code
 * #} comments, at most {@link #MAX_BYTES}. Read again at each keys request, as {@link ServedKeys}
 * reads its key file, so an operator revokes by editing the file and every agent sees it at its
 * next refresh. A file that stops parsing or cannot be read for a moment keeps the list held
 * (logged once per reason, counted): a bad edit never un-revokes an edge.
 */
public final class RevokedList {
  private static final Logger LOG = Logger.getLogger(RevokedList.class.getName());

  static final int MAX_BYTES = 64 * 1024;

  /**
   * The most edges a list may name: every keys answer carries the coordinator's, and an agent
   * refuses an answer naming more (nps-edge's {@code AgentKeys.MAX_SENDERS}), so a longer file is
   * refused here (at start; later the list held is kept, counted) rather than starving every agent
   * of keys.
   */
  public static final int MAX_EDGES = org.netpubsub.edge.link.RevokedBound.MAX_EDGES;

  private final LastGoodFile<Set<String>> file;

  private RevokedList(Path file, Set<String> held) {
    this.file =
        new LastGoodFile<>(
            LOG,
            file,
            held,
            RevokedList::read,
            "revoked edges",
            Set::size,
            Set::equals,
            (old, now) ->
                "revoked edges file " + file + " changed: " + now.size() + " edges revoked");
  }

  /**
   * Reads {@code file}; refused with the reason (naming the file and line) if it does not parse.
   */
  static RevokedList load(Path file) {
    try {
      return new RevokedList(file, read(file));
    } catch (IOException e) {
      throw new IllegalArgumentException("--revoked-edges " + file + ": cannot read (" + e + ")");
    }
  }

  /**
   * The names in {@code text}; errors name the line only. Pure; also the routing broker's and the
   * agents' {@code --revoked-edges} (nps-cli's RevokedEdges), so every revoked file reads alike.
   */
  public static Set<String> parse(String text, String what) {
    if (text.length() > MAX_BYTES) {
      throw new IllegalArgumentException(what + ": over " + MAX_BYTES + " B");
    }
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
      if (out.size() > MAX_EDGES) {
        throw new IllegalArgumentException(
            what + " line " + line + ": over " + MAX_EDGES + " edges");
      }
    }
    return Set.copyOf(out);
  }

  /** Bounded by the bytes read, not by {@code Files.size} (a device or a pipe reports 0). */
  private static Set<String> read(Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    }
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException("--revoked-edges " + file + ": over " + MAX_BYTES + " B");
    }
    return parse(new String(bytes, StandardCharsets.UTF_8), "--revoked-edges " + file);
  }

  /** The revoked edges now: the file's, or the last good list if it is bad now. */
  Set<String> edges() {
    return file.get();
  }

  /** Reads of the file that failed and kept the list held. */
  long invalidReads() {
    return file.invalidReads();
  }
}
