package org.netpubsub.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.netpubsub.controller.nbi.NorthboundBus;
import org.netpubsub.controller.nbi.RemoteAppKeys;
import org.netpubsub.http.FileWatcher;

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

  /**
   * Reloads the clients file into {@code bus} when it changes (checked every second) and on SIGHUP
   * (through the one dispatcher {@code --auth}'s reload shares): a removed client loses access at
   * once (docs/security.md). A file that does not parse keeps the clients in force, is counted and
   * logged.
   */
  static FileWatcher watch(Path clientsFile, NorthboundBus bus) {
    return watch(clientsFile, bus::reloadRemoteClients, Duration.ofSeconds(1)).onSighup();
  }

  /** The watch, applying each new set of clients with {@code apply}, every {@code poll}. */
  static FileWatcher watch(
      Path clientsFile, Consumer<Map<String, RemoteAppKeys.Client>> apply, Duration poll) {
    String source = "--nbi-remote-clients " + clientsFile;
    return new FileWatcher(
        source,
        "clients",
        bytes(clientsFile),
        () -> bytes(clientsFile),
        next -> {
          Map<String, RemoteAppKeys.Client> clients =
              RemoteAppKeys.clients(new String(next, StandardCharsets.UTF_8), source);
          apply.accept(clients);
          return clients.size() + " clients";
        },
        poll,
        "nps-nbi-clients-watch");
  }

  private static byte[] bytes(Path clientsFile) {
    return read(clientsFile, "--nbi-remote-clients").getBytes(StandardCharsets.UTF_8);
  }

  private static String read(Path file, String option) {
    return BoundedInput.file(file, option); // a 64 MiB limit, by bytes read
  }
}
