package org.netpubsub.content.schema;

import java.util.List;

/** Writes a schema as the YAML that {@link SchemaLoader} reads. */
public final class SchemaWriter {
  private SchemaWriter() {}

  public static String toYaml(Schema schema) {
    StringBuilder y = new StringBuilder();
    y.append("name: ").append(quote(schema.name())).append('\n');
    y.append("attributes:\n");
    for (Attribute a : schema.attributes()) {
      y.append("  - name: ").append(quote(a.name())).append('\n');
      switch (a) {
        case IntAttribute i ->
            y.append("    type: int\n    min: ")
                .append(i.min())
                .append("\n    max: ")
                .append(i.max())
                .append('\n');
        case StringAttribute s ->
            y.append("    type: string\n    max_length: ").append(s.maxLength()).append('\n');
      }
    }
    List<Attribute> index = schema.indexDimensions();
    if (!index.equals(schema.attributes())) {
      y.append("index: [")
          .append(String.join(", ", index.stream().map(a -> quote(a.name())).toList()))
          .append("]\n");
    }
    return y.toString();
  }

  private static String quote(String s) {
    return s.matches("[A-Za-z_][A-Za-z0-9_.]*")
        ? s
        : '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
