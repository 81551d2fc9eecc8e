package org.netpubsub.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.netpubsub.edge.link.DatagramAuth;
import picocli.CommandLine.Option;

/**
 * How edge agents and overlay brokers authenticate their datagrams (docs/security.md): a shared key
 * file, or no authentication when asked for by name. Neither given is refused: secure by default.
 */
final class DatagramKeyOptions {
  @Option(
      names = "--datagram-key",
      paramLabel = "FILE",
      description =
          "The shared datagram key file: hex keys, one per line (>= 32 bytes each); the first signs,"
              + " all verify.")
  Path keyFile;

  @Option(
      names = "--insecure-datagrams",
      description = "Tests and experiments only: send and accept datagrams without authentication.")
  boolean insecure;

  /**
   * The authentication the options ask for, or null when they ask for none (the agent or broker
   * then refuses to start with the reason); refused when they ask for both.
   */
  DatagramAuth auth() {
    if (keyFile != null && insecure) {
      throw new IllegalArgumentException(
          "--datagram-key and --insecure-datagrams exclude each other");
    }
    if (insecure) {
      return DatagramAuth.insecure();
    }
    if (keyFile == null) {
      return null; // the agent or broker refuses to start, after checking its other options
    }
    try {
      return DatagramAuth.fromFile(keyFile);
    } catch (IOException e) {
      throw new IllegalArgumentException("--datagram-key " + keyFile + ": cannot read (" + e + ")");
    }
  }
}
