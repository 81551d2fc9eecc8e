package org.netpubsub.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code nps -V}: the version and git commit Maven wrote into the jar when it was built. */
final class VersionInfo implements IVersionProvider {
  @Override
  public String[] getVersion() throws IOException {
    return new String[] {current()};
  }

  /** This jar's version line (also {@code Nps.main}'s fast path for {@code --version}). */
  static String current() throws IOException {
    Properties p = new Properties();
    try (InputStream in = VersionInfo.class.getResourceAsStream("/nps-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    }
    return line(p);
  }

  /** {@code netpubsub 0.1.0-SNAPSHOT (commit 0123456789, modified)}. */
  static String line(Properties p) {
    String commit = p.getProperty("commit", "unknown");
    boolean dirty = Boolean.parseBoolean(p.getProperty("dirty", "false"));
    return "netpubsub "
        + p.getProperty("version", "unknown")
        + " (commit "
        + commit
        + (dirty ? ", modified" : "")
        + ")";
  }
}
