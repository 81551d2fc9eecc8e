package org.netpubsub.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.SsbgModel;
import org.netpubsub.content.workload.UniformModel;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.content.workload.WorkloadJson;
import org.netpubsub.content.workload.WorkloadModel;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.content.workload.ZipfModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nps workload gen MODEL}: a seeded workload as JSON lines (all subscriptions, then all
 * events), optionally its schema as YAML, and a one-line summary.
 */
@Command(
    name = "gen",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Generates a seeded workload as JSON lines: first every subscription"
          + " {\"kind\":\"filter\",\"filter\":...,\"host\":\"h3\"} (itch: \"ports\":[17]; with"
          + " --arrival also \"at_ms\"), then every event {\"kind\":\"event\",\"attributes\":{...}}.",
      "The same seed and options give the same bytes. Models: uniform and zipf (PLEROMA),"
          + " ssbg (Siena synthetic benchmark, as in Camus), itch (Camus ITCH filters).",
      "A summary goes to stderr, or to stdout when --out takes the data; --json makes it JSON."
    })
final class WorkloadGenCommand implements Callable<Integer> {
  private static final Set<String> ALL = Set.of("uniform", "zipf", "ssbg", "itch");
  private static final Set<String> PLEROMA = Set.of("uniform", "zipf");

  @Mixin JsonOutput json;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "MODEL", description = "uniform, zipf, ssbg or itch.")
  String modelName;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "Seed of every random choice (default: 1).")
  long seed = 1;

  @Option(names = "--events", paramLabel = "N", description = "Events (default: 1000).")
  long events = 1000;

  @Option(
      names = "--subscriptions",
      paramLabel = "N",
      description = "Subscriptions (default: 100).")
  int subscriptions = 100;

  @Option(
      names = "--hosts",
      paramLabel = "N",
      description = "Hosts h1..hN, or ports 1..N for itch (default: 16; itch: 200).")
  Integer hosts;

  @Option(
      names = "--assign",
      paramLabel = "HOW",
      description =
          "round-robin, random or hotspot (zipf only) (default: zipf hotspot, itch random,"
              + " others round-robin).")
  String assign;

  @Option(
      names = "--arrival",
      paramLabel = "PROCESS",
      description = "Subscription arrivals: none, uniform or poisson (default: none).")
  String arrival = "none";

  @Option(
      names = "--rate",
      paramLabel = "R",
      description = "Arrival rate in subscriptions per second (default: 1000).")
  Double rate;

  @Option(
      names = "--attributes",
      paramLabel = "N",
      description = "uniform/zipf: int attributes, at most 10 (default 2); ssbg: default 10.")
  Integer attributes;

  @Option(
      names = "--domain",
      paramLabel = "D",
      description = "uniform/zipf: values in [0, D-1] (default: 1024).")
  Long domain;

  @Option(
      names = "--max-width",
      paramLabel = "F",
      description = "uniform/zipf: widest range as a fraction of D (default: 0.25).")
  Double maxWidth;

  @Option(
      names = "--constrain-prob",
      paramLabel = "P",
      description = "uniform/zipf: probability that a filter constrains an attribute (default 1).")
  Double constrainProb;

  @Option(names = "--hotspots", paramLabel = "H", description = "zipf: 1..8 (default: 4).")
  Integer hotspots;

  @Option(
      names = "--zipf-s",
      paramLabel = "S",
      description = "zipf, itch rich: Zipf exponent (default: 1.0).")
  Double zipfS;

  @Option(
      names = "--spread",
      paramLabel = "F",
      split = ",",
      description =
          "zipf: how far values stray from the hotspot, in [0, 1]: one value or one per"
              + " attribute (default: 1; 0 pins the attribute to the hotspot).")
  List<Double> spread;

  @Option(
      names = "--disjunctions",
      paramLabel = "AVG",
      description = "ssbg: mean extra disjuncts per filter, Poisson (default: 0).")
  Double disjunctions;

  @Option(
      names = "--attr-dist",
      paramLabel = "DIST",
      description = "ssbg: attribute choice, zipf or uniform (default: zipf).")
  String attrDist;

  @Option(
      names = "--itch-model",
      paramLabel = "VARIANT",
      description = "itch: simple or rich (default: rich).")
  String itchModel;

  @Option(
      names = "--symbols",
      paramLabel = "N",
      description = "itch: stock symbols (default: simple 100, rich 1000).")
  Integer symbols;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the lines here, not stdout.")
  Path out;

  @Option(names = "--schema-out", paramLabel = "FILE", description = "Write the schema YAML here.")
  Path schemaOut;

  @Override
  public Integer call() throws IOException {
    if (!ALL.contains(modelName)) {
      throw new IllegalArgumentException(
          "unknown model '" + modelName + "' (use uniform, zipf, ssbg or itch)");
    }
    checkApplicable();
    WorkloadModel model = model();
    Arrival.Kind kind = Arrival.Kind.parse(arrival);
    if (kind == Arrival.Kind.NONE && rate != null) {
      throw new IllegalArgumentException("--rate needs --arrival uniform or poisson");
    }
    WorkloadSpec workloadSpec =
        new WorkloadSpec(
            seed,
            subscriptions,
            events,
            hosts == null ? model.defaultHosts() : hosts,
            assign == null ? model.defaultAssignment() : HostAssignment.parse(assign),
            kind == Arrival.Kind.NONE
                ? Arrival.NONE
                : new Arrival(kind, rate == null ? 1000 : rate));
    Workload workload = model.generate(workloadSpec);
    if (schemaOut != null) {
      write(schemaOut, w -> w.write(SchemaWriter.toYaml(workload.schema())));
    }
    PrintWriter stdout = spec.commandLine().getOut();
    if (out != null) {
      write(out, w -> new WorkloadJson(w).writeAll(workload));
    } else {
      try {
        new WorkloadJson(new PipeWriter(stdout)).writeAll(workload);
      } catch (PipeWriter.ClosedStdout e) {
        return 0; // the reader has all it wanted (| head)
      }
    }
    PrintWriter summaryTo = out != null ? stdout : spec.commandLine().getErr();
    printSummary(summaryTo, workload, workloadSpec);
    return 0;
  }

  private WorkloadModel model() {
    return switch (modelName) {
      case "uniform" -> new UniformModel(space());
      case "zipf" ->
          new ZipfModel(
              space(),
              or(hotspots, ZipfModel.DEFAULT_HOTSPOTS),
              or(zipfS, ZipfModel.DEFAULT_EXPONENT),
              spread == null ? List.of(1.0) : spread);
      case "ssbg" ->
          new SsbgModel(
              or(attributes, SsbgModel.DEFAULT_ATTRIBUTES),
              or(disjunctions, 0.0),
              attrDist == null
                  ? SsbgModel.AttributeChoice.ZIPF
                  : SsbgModel.AttributeChoice.parse(attrDist));
      default -> {
        ItchModel.Variant variant =
            itchModel == null ? ItchModel.Variant.RICH : ItchModel.Variant.parse(itchModel);
        if (variant == ItchModel.Variant.SIMPLE && zipfS != null) {
          throw new IllegalArgumentException(
              "--zipf-s does not apply to --itch-model simple (its symbols are uniform)");
        }
        yield new ItchModel(variant, or(symbols, variant.defaultSymbols()), or(zipfS, 1.0));
      }
    };
  }

  private IntSpace space() {
    return new IntSpace(
        or(attributes, IntSpace.DEFAULT_ATTRIBUTES),
        or(domain, IntSpace.DEFAULT_DOMAIN),
        or(maxWidth, IntSpace.DEFAULT_MAX_WIDTH),
        or(constrainProb, IntSpace.DEFAULT_CONSTRAIN_PROB));
  }

  /** Strict options: a model option given to another model is an error, not silently ignored. */
  private void checkApplicable() {
    Map<String, Object> given = new LinkedHashMap<>();
    Map<String, Set<String>> appliesTo = new LinkedHashMap<>();
    applies(given, appliesTo, "--attributes", attributes, Set.of("uniform", "zipf", "ssbg"));
    applies(given, appliesTo, "--domain", domain, PLEROMA);
    applies(given, appliesTo, "--max-width", maxWidth, PLEROMA);
    applies(given, appliesTo, "--constrain-prob", constrainProb, PLEROMA);
    applies(given, appliesTo, "--hotspots", hotspots, Set.of("zipf"));
    applies(given, appliesTo, "--spread", spread, Set.of("zipf"));
    applies(given, appliesTo, "--zipf-s", zipfS, Set.of("zipf", "itch"));
    applies(given, appliesTo, "--disjunctions", disjunctions, Set.of("ssbg"));
    applies(given, appliesTo, "--attr-dist", attrDist, Set.of("ssbg"));
    applies(given, appliesTo, "--itch-model", itchModel, Set.of("itch"));
    applies(given, appliesTo, "--symbols", symbols, Set.of("itch"));
    List<String> wrong = new ArrayList<>();
    for (String option : given.keySet()) {
      if (!appliesTo.get(option).contains(modelName)) {
        wrong.add(option);
      }
    }
    if (!wrong.isEmpty()) {
      throw new IllegalArgumentException(
          String.join(", ", wrong) + " does not apply to model " + modelName);
    }
  }

  private static void applies(
      Map<String, Object> given,
      Map<String, Set<String>> appliesTo,
      String option,
      Object value,
      Set<String> models) {
    appliesTo.put(option, models);
    if (value != null) {
      given.put(option, value);
    }
  }

  private void printSummary(PrintWriter to, Workload w, WorkloadSpec s) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("model", w.model());
    summary.put("seed", w.seed());
    summary.put("subscriptions", w.subscriptions().size());
    summary.put("events", w.eventCount());
    summary.put("hosts", s.hosts());
    summary.put("assignment", s.assignment().label());
    summary.put("arrival", s.arrival().kind().label());
    summary.put("schema", w.schema().name());
    summary.put("attributes", w.schema().attributes().stream().map(a -> a.name()).toList());
    summary.put("out", out == null ? null : out.toString());
    summary.put("schema_out", schemaOut == null ? null : schemaOut.toString());
    if (json.enabled()) {
      JsonOutput.printLine(to, summary);
      return;
    }
    to.printf(
        "%s workload, seed %d: %d subscriptions for %d hosts (%s), %d events; schema %s %s%n",
        w.model(),
        w.seed(),
        w.subscriptions().size(),
        s.hosts(),
        s.assignment().label(),
        w.eventCount(),
        w.schema().name(),
        summary.get("attributes"));
    to.flush();
  }

  private static <T> T or(T value, T fallback) {
    return value == null ? fallback : value;
  }

  @FunctionalInterface
  private interface WriterBody {
    void accept(Writer w) throws IOException;
  }

  /** Writes a file; a path that cannot be written is the user's to fix (exit 2). */
  private static void write(Path file, WriterBody body) {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      body.accept(w);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write " + file + ": " + e, e);
    }
  }
}
