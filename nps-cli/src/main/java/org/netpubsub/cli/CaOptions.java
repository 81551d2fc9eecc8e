package org.netpubsub.cli;

import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import org.netpubsub.client.TrustedCa;
import picocli.CommandLine.Option;

/**
 * {@code --ca FILE}, else the {@code NPS_CA} environment variable: the CA certificate (PEM) a
 * client trusts for an https URL instead of the JDK's trust store (docs/security.md).
 */
final class CaOptions {
  @Option(
      names = "--ca",
      paramLabel = "FILE",
      description =
          "For an https URL: the CA certificate (PEM) that signed the server's certificate."
              + " Default: the NPS_CA environment variable, else the JDK's trusted CAs.")
  Path ca;

  /** The context, or null for the JDK's default. */
  SSLContext context() {
    Path file = ca;
    if (file == null) {
      String env = System.getenv("NPS_CA");
      if (env == null || env.isBlank()) {
        return null;
      }
      file = Path.of(env.strip());
    }
    return TrustedCa.context(file);
  }
}
