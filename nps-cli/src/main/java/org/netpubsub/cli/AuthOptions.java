package org.netpubsub.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.netpubsub.http.Authenticator;
import picocli.CommandLine.Option;

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
              + " Default: no authentication, and then the server listens on loopback only"
              + " (--insecure-api).")
  Path file;

  @Option(
      names = "--insecure-api",
      description =
          "Serve the REST API without --auth on a non-loopback address: anyone who reaches it"
              + " may do anything. For isolated labs only; without it such a bind is refused.")
  boolean insecureApi;

  /** Refuses an unauthenticated REST API beyond loopback unless {@code --insecure-api}. */
  void checkListen(java.net.InetSocketAddress at, String option) {
    LoopbackRule.check(at, file != null, insecureApi, option, "--auth FILE", "--insecure-api");
  }

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
    return a.onSighup(); // through the one SIGHUP dispatcher, beside the NBI clients file's
  }
}
