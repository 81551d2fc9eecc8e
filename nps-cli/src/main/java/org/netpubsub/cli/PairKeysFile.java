package org.netpubsub.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.netpubsub.edge.overlay.OwnKeyOnly;

/** Reads an edge broker's {@code --pair-keys} file: bounded by bytes read, errors name the file. */
final class PairKeysFile {
  /** A line per peer of about 80 B for {@link OwnKeyOnly#MAX_PAIRS} peers, with room. */
  static final int MAX_BYTES = 1 << 20;

  private PairKeysFile() {}

  static OwnKeyOnly read(Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    }
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException("--pair-keys " + file + ": over " + MAX_BYTES + " B");
    }
    try {
      return OwnKeyOnly.parse(new String(bytes, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--pair-keys " + file + " " + e.getMessage());
    }
  }
}
