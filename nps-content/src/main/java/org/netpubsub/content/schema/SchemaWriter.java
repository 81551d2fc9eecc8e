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
        case StringAttribute s when s.isTopic() ->
            y.append("    type: topic\n    max_length: ")
                .append(s.maxLength())
                .append("\n    levels: ")
                .append(s.levels())
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
    IndexLayout layout = schema.layout();
    if (!layout.isRoundRobin()) {
      y.append("layout:\n");
      if (!layout.bits().isEmpty()) {
        y.append("  bits: [")
            .append(String.join(", ", layout.segments().stream().map(s -> '"' + s + '"').toList()))
            .append("]\n");
      }
      if (!layout.codings().isEmpty() || !layout.cuts().isEmpty()) {
        y.append("  codings:\n");
        layout
            .cuts()
            .forEach(
                (name, k) ->
                    y.append("    ")
                        .append(quote(name))
                        .append(": {kind: cuts, cuts: ")
                        .append(k.cuts())
                        .append("}\n"));
        layout
            .codings()
            .forEach(
                (name, coding) -> {
                  y.append("    ").append(quote(name)).append(": {kind: ").append(coding.kind());
                  switch (coding) {
                    case StringCoding.Ordered o ->
                        y.append(", common_bits: \"").append(o.commonBits()).append('"');
                    case StringCoding.Dictionary d ->
                        y.append(", values: [")
                            .append(
                                String.join(", ", d.values().stream().map(v -> json(v)).toList()))
                            .append(']');
                    case StringCoding.Topic t ->
                        y.append(", level_bits: ")
                            .append(t.levelBits().toString())
                            .append(t.inOrder() ? "" : ", level_order: " + t.levelOrder())
                            .append(t.hasDictionaries() ? ", level_values: " + levelValues(t) : "");
                    case StringCoding.Hash h -> {}
                  }
                  y.append("}\n");
                });
      }
    }
    return y.toString();
  }

  /** A double-quoted YAML scalar: JSON's escapes are YAML's, so any string round-trips. */
  private static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xfeff) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  private static String quote(String s) {
    return s.matches("[A-Za-z_][A-Za-z0-9_.]*")
        ? s
        : '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** A topic coding's level dictionaries as a YAML flow list of lists. */
  private static String levelValues(StringCoding.Topic t) {
    return t.levelValues().stream()
        .map(v -> "[" + String.join(", ", v.stream().map(SchemaWriter::json).toList()) + "]")
        .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
  }
}
