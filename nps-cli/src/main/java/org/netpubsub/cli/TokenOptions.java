package org.netpubsub.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The bearer token a client presents (docs/security.md): {@code --token-file FILE}, else the {@code
 * NPS_TOKEN} environment variable, else none. A file is preferred: a command line is visible to
 * every user of the machine.
 */
final class TokenOptions {
  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "A file holding this client's bearer token (nps auth token makes one). Default: the"
              + " NPS_TOKEN environment variable; neither: no token.")
  Path tokenFile;

  /** The token, or null for none. */
  String token() {
    if (tokenFile == null) {
      String env = System.getenv("NPS_TOKEN");
      return env == null || env.isBlank() ? null : env.strip();
    }
    String t = BoundedInput.file(tokenFile, "--token-file").strip();
    if (t.isEmpty()) {
      throw new IllegalArgumentException("--token-file " + tokenFile + ": empty");
    }
    return t;
  }
}
