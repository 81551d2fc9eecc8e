package org.netpubsub.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Rewrites a watched file whole at once, as an editor's rename does, so that a {@link FileWatcher}
 * poll never sees it half written. Shared through this module's test jar with the tests of other
 * files reloaded by the watcher (nps-cli's clients file).
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void replace(Path f, String contents) throws IOException {
    replace(f, contents.getBytes(StandardCharsets.UTF_8));
  }

  public static void replace(Path f, byte[] contents) throws IOException {
    Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
    Files.write(tmp, contents);
    Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
