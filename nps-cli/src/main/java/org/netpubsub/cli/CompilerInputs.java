package org.netpubsub.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.SpecLoader;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventText;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;

/** The files {@code nps compile} reads: a spec, rules, events. Unreadable files are bad input. */
final class CompilerInputs {
  private CompilerInputs() {}

  /** A built-in spec by name ({@code itch}, {@code int}) or a spec or schema YAML file. */
  static MessageSpec spec(String nameOrFile) {
    var builtin = BuiltinSpecs.named(nameOrFile);
    if (builtin.isPresent()) {
      return builtin.get();
    }
    Path file = Path.of(nameOrFile);
    return SpecLoader.parse(read(file, "spec"), file.getFileName().toString());
  }

  /**
   * Rules from a rule file ({@code FILTER : fwd(P, …);} lines) or from JSON lines as {@code nps
   * workload gen} writes them ({@code {"kind":"filter","filter":…,"ports":[…]}}, or {@code
   * "host":"hN"} for port N; other kinds are skipped). {@code -} reads stdin.
   */
  static List<Rule> rules(MessageSpec spec, String file) {
    String text = file.equals("-") ? stdin() : read(Path.of(file), "rules");
    String first = text.stripLeading();
    if (!first.startsWith("{")) {
      return RuleParser.parse(spec.schema(), text);
    }
    List<Rule> out = new ArrayList<>();
    String[] lines = text.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      JsonNode n;
      try {
        n = JsonOutput.MAPPER.readTree(lines[i]);
      } catch (IOException e) {
        throw new InvalidInputException(
            file + " line " + (i + 1) + ": not JSON: " + e.getMessage());
      }
      if (!n.path("kind").asText("filter").equals("filter")) {
        continue;
      }
      String host = n.path("host").asText("");
      boolean byHost = host.matches("h[0-9]+");
      if (!n.path("filter").isTextual() || !(n.path("ports").isArray() || byHost)) {
        throw new InvalidInputException(
            file
                + " line "
                + (i + 1)
                + ": a rule line needs \"filter\" and \"ports\" (or \"host\": \"hN\", port N)");
      }
      String filter = n.get("filter").asText();
      int[] ports;
      if (n.path("ports").isArray()) {
        ports = new int[n.get("ports").size()];
        for (int p = 0; p < ports.length; p++) {
          ports[p] = n.get("ports").get(p).asInt(-1);
        }
      } else {
        ports = new int[] {Integer.parseInt(host.substring(1))};
      }
      try {
        out.add(
            new Rule(
                "line " + (i + 1),
                filter,
                Normalizer.toDnf(FilterParser.parse(spec.schema(), filter)),
                ports));
      } catch (InvalidInputException e) {
        throw new InvalidInputException(file + " line " + (i + 1) + ": " + e.render());
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException(file + " line " + (i + 1) + ": " + e.getMessage());
      }
    }
    return out;
  }

  /** The events of a JSON-lines file; lines of another kind (filters) are skipped. */
  static List<Event> events(MessageSpec spec, Path file) {
    List<Event> out = new ArrayList<>();
    String[] lines = read(file, "events").split("\n");
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (l.isBlank() || !kind(l).equals("event")) {
        continue;
      }
      try {
        out.add(EventText.fromJson(spec.schema(), l));
      } catch (InvalidInputException e) {
        throw new InvalidInputException(file + " line " + (i + 1) + ": " + e.render());
      }
    }
    return out;
  }

  /** A JSON line's "kind" ("event" when it has none or is no JSON object: the parser says why). */
  private static String kind(String line) {
    try {
      return JsonOutput.MAPPER.readTree(line).path("kind").asText("event");
    } catch (IOException e) {
      return "event";
    }
  }

  private static String read(Path file, String what) {
    return BoundedInput.file(file, what);
  }

  private static String stdin() {
    return BoundedInput.stdin();
  }
}
