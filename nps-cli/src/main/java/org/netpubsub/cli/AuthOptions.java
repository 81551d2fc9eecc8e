package org.netpubsub.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.netpubsub.http.Authenticator;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/**
 * {@code --auth FILE}: the principals a REST server authenticates (docs/security.md). The file is
 * reloaded when it changes (checked every second) and on SIGHUP; without it the server lets anyone
 * do anything and says so in one WARN line and the {@code nps_http_auth_enabled} gauge.
 */
final class AuthOptions {
  @Option(
      names = "--auth",
      paramLabel = "FILE",
      description =
          "The principals file (YAML; docs/security.md): bearer-token hashes, the hosts, regions"
              + " and edges each may act for, admin rights. Reloaded on change and on SIGHUP."
              + " Default: no authentication (a warning is logged).")
  Path file;

  /** The authenticator, or null without {@code --auth}; a bad file is one line of error. */
  Authenticator load(Consumer<String> regions) {
    if (file == null) {
      return null;
    }
    Authenticator a;
    try {
      a = Authenticator.load(file, regions, Duration.ofSeconds(1));
    } catch (IOException e) {
      throw new IllegalArgumentException("--auth " + file + ": cannot read (" + e + ")");
    }
    Signal.handle(new Signal("HUP"), s -> a.reload());
    return a;
  }
}
