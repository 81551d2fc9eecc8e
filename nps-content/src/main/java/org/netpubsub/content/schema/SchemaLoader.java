package org.netpubsub.content.schema;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads a schema from YAML (format in docs/content-model.md). Unknown keys, wrong types and {@code
 * min > max} are reported as {@link org.netpubsub.content.InvalidInputException} naming the key and
 * its line.
 */
public final class SchemaLoader {
  private SchemaLoader() {}

  public static Schema load(Path file) throws IOException {
    throw new UnsupportedOperationException("TODO(codec helper)");
  }

  /** Parses YAML text; {@code sourceName} (a file name) appears in error messages. */
  public static Schema parse(String yaml, String sourceName) {
    throw new UnsupportedOperationException("TODO(codec helper)");
  }
}
