package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.ContentAddress;
import org.netpubsub.content.index.CoverEstimate;
import org.netpubsub.content.index.CoverQuality;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nps index filter}: the dz cells covering a filter, their address prefixes, and how much
 * the cover over-approximates.
 */
@Command(
    name = "filter",
    mixinStandardHelpOptions = true,
    description = {
      "Print the dz cells (and IPv6 prefixes) that cover every event a filter matches,",
      "the fraction of the index space they span, and a sampled over-cover estimate."
    })
final class IndexFilterCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Mixin IndexOptions options;

  @Option(
      names = "--max-cells",
      paramLabel = "K",
      defaultValue = "" + SpatialIndex.DEFAULT_MAX_CELLS,
      description = "At most this many cells (default: ${DEFAULT-VALUE}).")
  int maxCells;

  @Option(
      names = "--samples",
      paramLabel = "N",
      defaultValue = "10000",
      description =
          "Random events for the over-cover estimate; 0 skips it (default: ${DEFAULT-VALUE}).")
  int samples;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the random events (default: ${DEFAULT-VALUE}).")
  long seed;

  @Parameters(index = "0", paramLabel = "FILTER", description = "Filter text.")
  String filter;

  @Override
  public Integer call() {
    SpatialIndex index = options.spatialIndex();
    Schema s = index.schema();
    Dnf dnf = Normalizer.toDnf(FilterParser.parse(s, filter));
    Map<String, Object> result = describe(index, dnf, maxCells, samples, seed);
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      JsonOutput.printLine(out, result);
    } else {
      out.print(text(result));
      out.flush();
    }
    return 0;
  }

  /**
   * The JSON object: cells (dz, prefix), cellCount, coveredFraction (exact, of the index space),
   * and from sampling: overCoverFraction, matchFraction, samples (fractions null without samples).
   */
  static Map<String, Object> describe(
      SpatialIndex index, Dnf dnf, int maxCells, int samples, long seed) {
    if (samples < 0) {
      throw new IllegalArgumentException("--samples must be ≥ 0, got " + samples);
    }
    DzSet cover = index.cover(dnf, maxCells);
    List<Map<String, Object>> cells = new ArrayList<>();
    for (Dz dz : cover) {
      Map<String, Object> cell = new LinkedHashMap<>();
      cell.put("dz", dz.bits());
      cell.put("prefix", ContentAddress.of(dz).toString());
      cells.add(cell);
    }
    CoverEstimate estimate = CoverQuality.estimate(index, dnf, cover, samples, seed);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("length", index.length());
    m.put("max_cells", maxCells);
    m.put("cells", cells);
    m.put("cell_count", cover.size());
    m.put("covered_fraction", cover.volume());
    m.put("over_cover_fraction", samples == 0 ? null : estimate.overCoverFraction());
    m.put("match_fraction", samples == 0 ? null : estimate.matchFraction());
    m.put("samples", samples);
    return m;
  }

  @SuppressWarnings("unchecked")
  static String text(Map<String, Object> d) {
    StringBuilder sb = new StringBuilder();
    List<Map<String, Object>> cells = (List<Map<String, Object>>) d.get("cells");
    sb.append(
        String.format(
            Locale.ROOT,
            "%d %s (at most %d, dz length %d) covering %s of the index space%n",
            cells.size(),
            cells.size() == 1 ? "cell" : "cells",
            (Integer) d.get("max_cells"),
            (Integer) d.get("length"),
            percent((Double) d.get("covered_fraction"))));
    int width = 1;
    for (Map<String, Object> c : cells) {
      width = Math.max(width, ((String) c.get("dz")).length());
    }
    for (Map<String, Object> c : cells) {
      String dz = (String) c.get("dz");
      sb.append(
          String.format(
              Locale.ROOT, "  %-" + width + "s  %s%n", dz.isEmpty() ? "ε" : dz, c.get("prefix")));
    }
    if (d.get("over_cover_fraction") != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "over-cover %s (covered but not matched), match %s, of %d sampled events%n",
              percent((Double) d.get("over_cover_fraction")),
              percent((Double) d.get("match_fraction")),
              (Integer) d.get("samples")));
    }
    return sb.toString();
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.2f%%", 100 * fraction);
  }
}
