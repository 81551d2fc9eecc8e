package org.netpubsub.cli;

import java.nio.file.Path;
import org.netpubsub.controller.southbound.OpenFlowTls;
import org.netpubsub.controller.southbound.SwitchIdentities;
import picocli.CommandLine.Option;

/** The controller's OpenFlow-over-TLS files, used with {@code --openflow ssl:HOST:PORT}. */
final class OpenFlowTlsOptions {
  @Option(
      names = "--openflow-key",
      paramLabel = "FILE",
      description = "With --openflow ssl:…: the controller's private key (PEM, PKCS#8).")
  Path key;

  @Option(
      names = "--openflow-cert",
      paramLabel = "FILE",
      description = "With --openflow ssl:…: the controller's certificate (PEM).")
  Path cert;

  @Option(
      names = "--openflow-ca",
      paramLabel = "FILE",
      description =
          "With --openflow ssl:…: the CA certificate (PEM) that must have signed every switch's"
              + " certificate (ovs-pki's switchca/cacert.pem).")
  Path ca;

  @Option(
      names = "--openflow-switches",
      paramLabel = "FILE",
      description =
          "With --openflow ssl:…: which dpids each switch certificate may claim, lines of"
              + " 'NAME DPID...' or 'NAME *' (NAME: the first word of the certificate's CN)."
              + " Without it only certificates named dpid-HEX are accepted, each for its dpid.")
  Path switches;

  /** The TLS settings for {@code ssl:} (null for {@code tcp:}); the error names the flag. */
  OpenFlowTls settings(boolean ssl) {
    if (!ssl) {
      if (key != null || cert != null || ca != null || switches != null) {
        throw new IllegalArgumentException(
            "--openflow-key, --openflow-cert, --openflow-ca and --openflow-switches need"
                + " --openflow ssl:HOST:PORT");
      }
      return null;
    }
    required(key, "--openflow-key");
    required(cert, "--openflow-cert");
    required(ca, "--openflow-ca");
    SwitchIdentities identities =
        switches == null
            ? SwitchIdentities.namesOnly()
            : SwitchIdentities.parse(BoundedInput.file(switches, "--openflow-switches"));
    return new OpenFlowTls(key, cert, ca, identities);
  }

  private static void required(Path p, String flag) {
    if (p == null) {
      throw new IllegalArgumentException("--openflow ssl:HOST:PORT needs " + flag + " FILE");
    }
  }
}
