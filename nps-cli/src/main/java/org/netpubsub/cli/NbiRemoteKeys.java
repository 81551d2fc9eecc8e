package org.netpubsub.cli;

import java.nio.file.Path;
import org.netpubsub.controller.nbi.RemoteAppKeys;

/** Reads {@code --nbi-remote-key} and {@code --nbi-remote-clients} (docs/security.md). */
final class NbiRemoteKeys {
  private NbiRemoteKeys() {}

  /**
   * The keys, or null when neither option is given.
   *
   * @throws IllegalArgumentException one line naming the option and the file's line
   */
  static RemoteAppKeys load(Path keyFile, Path clientsFile, boolean remote) {
    if (keyFile == null && clientsFile == null) {
      return null;
    }
    if (keyFile == null || clientsFile == null) {
      throw new IllegalArgumentException("--nbi-remote-key and --nbi-remote-clients go together");
    }
    if (!remote) {
      throw new IllegalArgumentException(
          "--nbi-remote-key and --nbi-remote-clients need --nbi-remote HOST:PORT");
    }
    RemoteAppKeys.KeyPair server =
        RemoteAppKeys.keyPair(read(keyFile, "--nbi-remote-key"), "--nbi-remote-key " + keyFile);
    return new RemoteAppKeys(
        server,
        RemoteAppKeys.clients(
            read(clientsFile, "--nbi-remote-clients"), "--nbi-remote-clients " + clientsFile));
  }

  private static String read(Path file, String option) {
    return BoundedInput.file(file, option); // a 64 MiB limit, by bytes read
  }
}
