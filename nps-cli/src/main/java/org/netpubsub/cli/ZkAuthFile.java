package org.netpubsub.cli;

import java.nio.file.Path;
import org.netpubsub.edge.overlay.ZkAuth;

/** Reads {@code --zookeeper-auth FILE}: one line user:password (the error names the flag). */
final class ZkAuthFile {
  private static final String FLAG = "--zookeeper-auth";

  private ZkAuthFile() {}

  /** The credentials, or null without the flag. */
  static ZkAuth read(Path file) {
    if (file == null) {
      return null;
    }
    return ZkAuth.parse(BoundedInput.file(file, FLAG), FLAG + " " + file);
  }
}
