package org.netpubsub.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventText;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.FalsePositiveSample;
import org.netpubsub.content.index.HostBudget;
import org.netpubsub.content.index.LayoutDesigner;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IndexLayout;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps index design}: learns an index layout from a workload sample and compares its false
 * positives with the schema's round-robin index (docs/content-model.md, "Learned layouts").
 */
@Command(
    name = "design",
    mixinStandardHelpOptions = true,
    description = {
      "Learn an index layout (which attribute each dz bit refines, how strings are coded) that"
          + " minimises the false positives of a sample of subscriptions and events, and print it"
          + " with the expected false-positive rate of it and of the round-robin index.",
      "The workload is JSON lines as `nps workload gen` writes them: {\"kind\":\"filter\","
          + "\"filter\":\"...\"} and {\"kind\":\"event\",\"attributes\":{...}}."
    })
final class IndexDesignCommand implements Callable<Integer> {
  /** Per-subscription rows are printed for workloads of at most this many subscriptions. */
  private static final int LISTED = 100;

  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(names = "--schema", required = true, paramLabel = "FILE", description = "Schema YAML.")
  Path schema;

  @Option(
      names = "--workload",
      required = true,
      paramLabel = "W.jsonl",
      description = "Subscriptions and events (JSON lines).")
  Path workload;

  @Option(
      names = "--length",
      paramLabel = "L",
      description = "dz length in bits, 1..112 (default: the schema's round-robin default).")
  Integer length;

  @Option(
      names = "--max-cells",
      paramLabel = "K",
      defaultValue = "" + SpatialIndex.DEFAULT_MAX_CELLS,
      description = "Cells (flows) per subscription at most (default: ${DEFAULT-VALUE}).")
  int maxCells;

  @Option(
      names = "--search-subscriptions",
      paramLabel = "N",
      defaultValue = "1000",
      description =
          "The search uses the first N subscriptions; the rates printed use all"
              + " (default: ${DEFAULT-VALUE}).")
  int searchSubscriptions;

  @Option(
      names = "--max-flows",
      paramLabel = "F",
      defaultValue = "0",
      description =
          "Design for edge switches of at most F content flows (each host's union of covers"
              + " merged to F); 0 = no flow budget, scored per subscription (default:"
              + " ${DEFAULT-VALUE}).")
  int maxFlows;

  @Option(
      names = "--host-subscriptions",
      paramLabel = "N",
      defaultValue = "100",
      description = "Subscriptions a host holds, with --max-flows (default: ${DEFAULT-VALUE}).")
  int hostSubscriptions;

  @Option(
      names = "--measure",
      paramLabel = "EVENTS.jsonl",
      description =
          "Measure the rates on these events (JSON lines) instead of the workload's own, so"
              + " that the layout is judged on events it was not learned from.")
  Path measure;

  @Override
  public Integer call() throws IOException {
    Schema s = SchemaFiles.load(schema).withLayout(IndexLayout.ROUND_ROBIN);
    int l = length == null ? SpatialIndex.defaultLength(s) : length;
    if (maxCells < 1 || maxCells > SpatialIndex.MAX_CELLS_LIMIT) {
      throw new IllegalArgumentException(
          "--max-cells must be in 1.." + SpatialIndex.MAX_CELLS_LIMIT);
    }
    if (maxFlows < 0) {
      throw new IllegalArgumentException("--max-flows must be 0 (no budget) or positive");
    }
    if (hostSubscriptions < 1) {
      throw new IllegalArgumentException("--host-subscriptions must be positive");
    }
    if (searchSubscriptions < 1) {
      throw new IllegalArgumentException("--search-subscriptions must be positive");
    }
    List<String> filters = new ArrayList<>();
    List<Dnf> dnfs = new ArrayList<>();
    List<Event> events = new ArrayList<>();
    read(s, workload, filters, dnfs, events);
    if (dnfs.isEmpty()) {
      throw new IllegalArgumentException("--workload " + workload + ": needs filter lines");
    }
    List<Event> measured = events;
    if (measure != null) {
      measured = new ArrayList<>();
      read(s, measure, new ArrayList<>(), new ArrayList<>(), measured);
    }
    FalsePositiveSample search =
        new FalsePositiveSample(
            events, dnfs.subList(0, Math.min(searchSubscriptions, dnfs.size())));
    HostBudget budget = maxFlows == 0 ? null : new HostBudget(hostSubscriptions, maxFlows);
    LayoutDesigner.Design d = LayoutDesigner.design(s, search, l, maxCells, budget);
    FalsePositiveSample all = new FalsePositiveSample(measured, dnfs);
    FalsePositiveSample.Result learned =
        all.measure(new SpatialIndex(d.schema(), d.length()), maxCells);
    FalsePositiveSample.Result roundRobin = all.measure(new SpatialIndex(s, l), maxCells);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("schema", s.name());
    out.put("length", d.length());
    out.put("max_cells", maxCells);
    out.put("max_flows", maxFlows);
    out.put("subscriptions", dnfs.size());
    out.put("events", events.size());
    out.put("measured_events", measured.size());
    Map<String, Object> layout = new LinkedHashMap<>();
    layout.put("index", d.schema().indexDimensions().stream().map(Attribute::name).toList());
    layout.putAll(d.schema().layout().toJson());
    out.put("layout", layout);
    out.put("expected_fpr", learned.rate());
    out.put("round_robin_fpr", roundRobin.rate());
    out.put("learned", totals(learned));
    out.put("round_robin", totals(roundRobin));
    if (dnfs.size() <= LISTED) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (int i = 0; i < dnfs.size(); i++) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("filter", filters.get(i));
        row.put("matching", learned.matching()[i]);
        row.put(
            "false_positives_round_robin", roundRobin.delivered()[i] - roundRobin.matching()[i]);
        row.put("false_positives_learned", learned.delivered()[i] - learned.matching()[i]);
        row.put("cells_round_robin", roundRobin.cells()[i]);
        row.put("cells_learned", learned.cells()[i]);
        rows.add(row);
      }
      out.put("per_subscription", rows);
    }
    out.put("schema_yaml", SchemaWriter.toYaml(d.schema()));
    PrintWriter w = spec.commandLine().getOut();
    if (json.enabled()) {
      JsonOutput.printLine(w, out);
    } else {
      w.printf("layout (%d bits): %s%n", d.length(), d.schema().layout().segments());
      ((Map<?, ?>) d.schema().layout().toJson().get("codings"))
          .forEach((n, c) -> w.printf("  %s: %s%n", n, c));
      w.printf(
          "expected false-positive rate: %.4f learned, %.4f round-robin (%d subscriptions, %d"
              + " events, at most %d cells)%n",
          learned.rate(), roundRobin.rate(), dnfs.size(), events.size(), maxCells);
      w.print(SchemaWriter.toYaml(d.schema()));
      w.flush();
    }
    return 0;
  }

  private static Map<String, Object> totals(FalsePositiveSample.Result r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("delivered", r.totalDelivered());
    m.put("false_positives", r.falsePositives());
    m.put("fpr", r.rate());
    m.put("max_cells_per_subscription", r.maxCells());
    return m;
  }

  /** Reads filter and event lines of {@code file} into the lists. */
  private static void read(
      Schema s, Path file, List<String> filters, List<Dnf> dnfs, List<Event> events) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": cannot read", e);
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String where = file + " line " + (i + 1) + ": ";
      try {
        JsonNode n = JsonOutput.MAPPER.readTree(line);
        String kind = n.path("kind").asText("");
        if (kind.equals("filter")) {
          String f = n.path("filter").asText();
          filters.add(f);
          dnfs.add(Normalizer.toDnf(FilterParser.parse(s, f)));
        } else if (kind.equals("event")) {
          events.add(EventText.fromJson(s, line));
        } else {
          throw new IllegalArgumentException("kind must be filter or event, got '" + kind + "'");
        }
      } catch (RuntimeException | IOException e) {
        throw new IllegalArgumentException(where + e.getMessage());
      }
    }
    if (events.isEmpty()) {
      throw new IllegalArgumentException(file + ": needs at least one event line");
    }
  }
}
