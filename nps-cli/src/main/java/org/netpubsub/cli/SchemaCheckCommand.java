package org.netpubsub.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nps schema check FILE}: loads a schema file and prints its summary, or what is wrong. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = "Check a schema file (YAML) and print its name, id, attributes and index.")
final class SchemaCheckCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Parameters(paramLabel = "FILE", description = "The schema file.")
  Path file;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Schema schema = SchemaFiles.load(file);
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      JsonOutput.printLine(out, toJson(schema));
    } else {
      printText(out, schema);
    }
    return 0;
  }

  static String hexId(Schema schema) {
    return String.format("%08x", schema.id());
  }

  private static Map<String, Object> toJson(Schema schema) {
    List<Map<String, Object>> attributes = new ArrayList<>();
    for (Attribute a : schema.attributes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", a.name());
      switch (a) {
        case IntAttribute i -> {
          m.put("type", "int");
          m.put("min", i.min());
          m.put("max", i.max());
        }
        case StringAttribute s -> {
          m.put("type", s.isTopic() ? "topic" : "string");
          m.put("max_length", s.maxLength());
          if (s.isTopic()) {
            m.put("levels", s.levels());
          }
        }
      }
      attributes.add(m);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", schema.name());
    out.put("id", hexId(schema));
    out.put("attributes", attributes);
    out.put("index", schema.indexDimensions().stream().map(Attribute::name).toList());
    return out;
  }

  private static void printText(PrintWriter out, Schema schema) {
    out.println("schema " + schema.name() + " (id " + hexId(schema) + ")");
    int width = schema.attributes().stream().mapToInt(a -> a.name().length()).max().orElse(0);
    out.println("attributes:");
    for (Attribute a : schema.attributes()) {
      String domain =
          switch (a) {
            case IntAttribute i -> "int     [" + i.min() + ", " + i.max() + "]";
            case StringAttribute s when s.isTopic() ->
                "topic   max_length " + s.maxLength() + " bytes, " + s.levels() + " levels";
            case StringAttribute s -> "string  max_length " + s.maxLength() + " bytes";
          };
      out.printf("  %-" + width + "s  %s%n", a.name(), domain);
    }
    List<String> index = schema.indexDimensions().stream().map(Attribute::name).toList();
    out.println("index: " + (index.isEmpty() ? "(none)" : String.join(", ", index)));
    out.flush();
  }
}
