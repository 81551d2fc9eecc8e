package org.netpubsub.cli;

import java.nio.file.Path;
import org.netpubsub.http.ServerTls;
import org.netpubsub.http.TlsProvider;
import picocli.CommandLine.Option;

/**
 * {@code --tls-cert}, {@code --tls-key}, {@code --tls-client-ca}, {@code --tls-provider}: HTTPS for
 * a REST server, from PEM files (docs/security.md). A file that cannot be used is one line and exit
 * 1.
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

  @Option(
      names = "--tls-provider",
      paramLabel = "boringssl|jdk",
      description =
          "With --tls-cert: who encrypts the records. boringssl (default): Conscrypt where its"
              + " native library loads (linux-x86_64), else the JDK's; jdk: the JDK's always.")
  String provider = "boringssl";

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
    TlsProvider p =
        switch (provider) {
          case "boringssl" -> TlsProvider.BORINGSSL;
          case "jdk" -> TlsProvider.JDK;
          default ->
              throw new IllegalArgumentException(
                  "--tls-provider must be boringssl or jdk, not '" + provider + "'");
        };
    try {
      return ServerTls.load(cert, key, clientCa, p);
    } catch (ServerTls.TlsFileException e) {
      throw new CommandFailure("tls_error", e.getMessage(), CommandFailure.EXIT_FAILURE, e);
    }
  }
}
