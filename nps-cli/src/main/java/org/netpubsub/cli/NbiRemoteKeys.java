package org.netpubsub.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.netpubsub.controller.nbi.NorthboundBus;
import org.netpubsub.controller.nbi.RemoteAppKeys;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/** Reads {@code --nbi-remote-key} and {@code --nbi-remote-clients} (docs/security.md). */
final class NbiRemoteKeys {
  private static final System.Logger LOG = System.getLogger(NbiRemoteKeys.class.getName());

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
   * (after the handler already installed, e.g. {@code --auth}'s, which keeps running): a removed
   * client loses access at once (docs/security.md). A file that does not parse keeps the clients in
   * force and is logged.
   */
  static void watch(Path clientsFile, NorthboundBus bus) {
    String source = "--nbi-remote-clients " + clientsFile;
    AtomicReference<String> loaded =
        new AtomicReference<>(read(clientsFile, "--nbi-remote-clients"));
    Runnable reload =
        () -> {
          synchronized (loaded) {
            try {
              String text = read(clientsFile, "--nbi-remote-clients");
              if (!text.equals(loaded.get())) {
                Map<String, RemoteAppKeys.Client> clients = RemoteAppKeys.clients(text, source);
                bus.reloadRemoteClients(clients);
                loaded.set(text);
                LOG.log(
                    System.Logger.Level.INFO, "{0}: reloaded, {1} clients", source, clients.size());
              }
            } catch (RuntimeException e) {
              LOG.log(
                  System.Logger.Level.WARNING,
                  "{0}: not reloaded, the clients in force stay: {1}",
                  source,
                  e.getMessage());
            }
          }
        };
    Thread.ofPlatform()
        .daemon()
        .name("nps-nbi-clients-watch")
        .start(
            () -> {
              try {
                while (true) {
                  Thread.sleep(1000); // the poll period, as --auth's file watch
                  reload.run();
                }
              } catch (InterruptedException e) {
                // the JVM is exiting
              }
            });
    AtomicReference<SignalHandler> before = new AtomicReference<>();
    before.set(
        Signal.handle(
            new Signal("HUP"),
            s -> {
              reload.run();
              SignalHandler b = before.get();
              if (b != null && b != SignalHandler.SIG_DFL && b != SignalHandler.SIG_IGN) {
                b.handle(s);
              }
            }));
  }

  private static String read(Path file, String option) {
    return BoundedInput.file(file, option); // a 64 MiB limit, by bytes read
  }
}
