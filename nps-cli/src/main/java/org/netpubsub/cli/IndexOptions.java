package org.netpubsub.cli;

import java.nio.file.Path;
import org.netpubsub.content.index.SpatialIndex;
import picocli.CommandLine.Option;

/** The options every {@code nps index} command shares: the schema and the dz length. */
final class IndexOptions {
  @Option(names = "--schema", required = true, paramLabel = "FILE", description = "Schema YAML.")
  Path schema;

  @Option(
      names = "--length",
      paramLabel = "L",
      description = "dz length in bits, 1..112 (default: enough to resolve every value, ≤ 112).")
  Integer length;

  /** The spatial index over the named schema, of the given or the default length. */
  SpatialIndex spatialIndex() {
    var s = SchemaFiles.load(schema);
    return length == null ? SpatialIndex.withDefaultLength(s) : new SpatialIndex(s, length);
  }
}
