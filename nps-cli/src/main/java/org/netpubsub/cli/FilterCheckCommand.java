package org.netpubsub.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `nps filter check`: parses and type-checks a filter against a schema, prints its normal form. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Parse and type-check a filter against a schema, and print its disjunctive normal form:"
          + " one conjunction per line, then their count.",
      "Exit code 2 with the offending spot marked when the filter or the schema is bad."
    })
final class FilterCheckCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--schema",
      required = true,
      paramLabel = "SCHEMA.yaml",
      description = "The schema the filter is typed against.")
  Path schemaFile;

  @Option(
      names = "--max-conjunctions",
      paramLabel = "N",
      defaultValue = "" + Normalizer.DEFAULT_MAX_CONJUNCTIONS,
      description =
          "Refuse filters whose normal form exceeds N conjunctions (default: ${DEFAULT-VALUE}).")
  int maxConjunctions;

  @Parameters(
      index = "0",
      paramLabel = "FILTER",
      description = "The filter, e.g. 'price < 5 && symbol == IBM'.")
  String filter;

  @Override
  public Integer call() {
    Schema schema = SchemaFiles.load(schemaFile);
    Filter parsed = FilterParser.parse(schema, filter);
    Dnf dnf = Normalizer.toDnf(parsed, maxConjunctions);
    boolean aggregates = dnf.conjunctions().stream().anyMatch(c -> !c.aggregates().isEmpty());
    PrintWriter out = spec.commandLine().getOut();
    int n = dnf.conjunctions().size();
    if (json.enabled()) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("filter", filter);
      result.put("normal_form", FilterPrinter.print(dnf));
      result.put("conjunctions", n);
      result.put("aggregates", aggregates);
      JsonOutput.printLine(out, result);
      return 0;
    }
    if (dnf.isFalse()) {
      out.println("false");
    }
    for (Conjunction c : dnf.conjunctions()) {
      out.println(FilterPrinter.print(c));
    }
    out.println(
        n
            + (n == 1 ? " conjunction" : " conjunctions")
            + (aggregates ? ", with stateful aggregates" : ""));
    out.flush();
    return 0;
  }
}
