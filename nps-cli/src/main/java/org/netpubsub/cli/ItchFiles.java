package org.netpubsub.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Nasdaq's historical ITCH files on disk: read and written as they are, or gzip-compressed when the
 * name ends in {@code .gz} (as Nasdaq publishes them). A file that cannot be opened is bad input.
 */
final class ItchFiles {
  private ItchFiles() {}

  static InputStream open(Path file) {
    try {
      InputStream in = Files.newInputStream(file);
      return gz(file) ? new GZIPInputStream(in, 1 << 16) : in;
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("cannot read ITCH file " + file + ": no such file");
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read ITCH file " + file + ": " + e.getMessage());
    }
  }

  static OutputStream create(Path file) throws IOException {
    OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
    return gz(file) ? new GZIPOutputStream(out, 1 << 16) : out;
  }

  private static boolean gz(Path file) {
    return file.getFileName().toString().endsWith(".gz");
  }
}
