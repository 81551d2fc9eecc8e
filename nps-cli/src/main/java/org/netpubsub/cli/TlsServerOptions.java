package org.netpubsub.cli;

import java.nio.file.Path;
import org.netpubsub.http.ServerTls;
import picocli.CommandLine.Option;

/**
 * {@code --tls-cert}, {@code --tls-key}, {@code --tls-client-ca}: HTTPS for a REST server, from PEM
 * files (docs/security.md). A file that cannot be used is one line and exit 1.
 */
final class TlsServerOptions {
  @Option(
      names = "--tls-cert",
      paramLabel = "FILE",
      description =
          "Serve HTTPS with this certificate (PEM; the server's first, then its chain)."
              + " Needs --tls-key. Default: plain HTTP.")
  Path cert;

  @Option(
      names = "--tls-key",
      paramLabel = "FILE",
      description = "With --tls-cert: the certificate's private key (PEM, unencrypted PKCS#8).")
  Path key;

  @Option(
      names = "--tls-client-ca",
      paramLabel = "FILE",
      description =
          "With --tls-cert: mutual TLS, every client must present a certificate this CA (PEM)"
              + " signed.")
  Path clientCa;

  /** Whether HTTPS was asked for. */
  boolean enabled() {
    return cert != null || key != null || clientCa != null;
  }

  /** The settings, or null for plain HTTP; unusable files: one line, exit 1. */
  ServerTls load() {
    if (!enabled()) {
      return null;
    }
    if (cert == null || key == null) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    try {
      return ServerTls.load(cert, key, clientCa);
    } catch (ServerTls.TlsFileException e) {
      throw new CommandFailure("tls_error", e.getMessage(), CommandFailure.EXIT_FAILURE, e);
    }
  }
}
