package org.netpubsub.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;

/** Reads the schema file a command names; an unreadable file is bad input (exit 2), not a crash. */
final class SchemaFiles {
  private SchemaFiles() {}

  static Schema load(Path file) {
    try {
      return SchemaLoader.load(file);
    } catch (NoSuchFileException e) {
      throw new InvalidInputException("cannot read schema " + file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new InvalidInputException("cannot read schema " + file + ": permission denied");
    } catch (IOException e) {
      throw new InvalidInputException("cannot read schema " + file + ": " + e.getMessage());
    }
  }
}
