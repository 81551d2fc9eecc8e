package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventText;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `nps filter match`: which events of a file each filter matches, by direct evaluation — the ground
 * truth that deliveries through the network are compared with.
 */
@Command(
    name = "match",
    mixinStandardHelpOptions = true,
    description = {
      "Evaluate filters directly on the events of a JSON-lines file and print, per filter, the"
          + " (0-based) line numbers of the events it matches. No index, no network: the"
          + " reference that deliveries are checked against."
    })
final class FilterMatchCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--schema",
      required = true,
      paramLabel = "SCHEMA.yaml",
      description = "The schema the filters and events are checked against.")
  Path schemaFile;

  @Option(
      names = "--events",
      required = true,
      paramLabel = "EVENTS.jsonl",
      description = "One event per line: {\"kind\":\"event\",\"attributes\":{…}}.")
  Path eventsFile;

  @Parameters(paramLabel = "FILTER", arity = "1..*", description = "One or more filters.")
  List<String> filters;

  @Override
  public Integer call() throws IOException {
    Schema schema = SchemaFiles.load(schemaFile);
    List<Event> events = readEvents(schema, eventsFile);
    PrintWriter out = spec.commandLine().getOut();
    for (int f = 0; f < filters.size(); f++) {
      Dnf dnf = Normalizer.toDnf(FilterParser.parse(schema, filters.get(f)));
      List<Integer> matches = new ArrayList<>();
      for (int i = 0; i < events.size(); i++) {
        if (FilterEvaluator.matches(dnf, events.get(i))) {
          matches.add(i);
        }
      }
      if (json.enabled()) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("kind", "match");
        o.put("filter", filters.get(f));
        o.put("events", matches);
        JsonOutput.printLine(out, o);
      } else {
        out.println(filters.get(f) + ": " + matches.size() + " of " + events.size() + " events");
      }
    }
    out.flush();
    return 0;
  }

  static List<Event> readEvents(Schema schema, Path file) throws IOException {
    List<Event> out = new ArrayList<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new InvalidInputException("cannot read events " + file + ": no such file");
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      try {
        out.add(EventText.fromJson(schema, lines.get(i)));
      } catch (InvalidInputException e) {
        throw new InvalidInputException(file + " line " + (i + 1) + ": " + e.render());
      }
    }
    return out;
  }
}
