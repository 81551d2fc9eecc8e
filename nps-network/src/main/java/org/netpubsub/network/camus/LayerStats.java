package org.netpubsub.network.camus;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.compiler.PipelineStats;

/**
 * Switch memory per layer (Camus Figure 13a–c): over a layer's switches, the local rules and the
 * compiled tables' entries (all tables and the leaf table), TCAM entries once ranges are expanded
 * to prefixes, multicast groups and BDD states — totals, and the largest switch.
 */
public record LayerStats(
    String layer,
    int switches,
    long alpha,
    long rules,
    long entries,
    long ternary,
    long groups,
    long states,
    long tableBits,
    int maxEntries,
    int maxTernary) {

  /** Per layer, bottom up. */
  public static List<LayerStats> of(CamusRouting routing) {
    Hierarchy h = routing.hierarchy();
    List<LayerStats> out = new ArrayList<>();
    for (int l = 0; l < h.layerCount(); l++) {
      long rules = 0;
      long entries = 0;
      long ternary = 0;
      long groups = 0;
      long states = 0;
      long bits = 0;
      int maxEntries = 0;
      int maxTernary = 0;
      for (long s : h.layer(l)) {
        PipelineStats p = PipelineStats.of(routing.compilation(s));
        rules += p.rules();
        entries += p.entries();
        ternary += p.ternary();
        groups += p.groups();
        states += p.states();
        bits += p.tableBits();
        maxEntries = Math.max(maxEntries, p.entries());
        maxTernary = Math.max(maxTernary, p.ternary());
      }
      long alpha = routing.options(h.layer(l).get(0)).alpha();
      out.add(
          new LayerStats(
              h.layerName(l),
              h.layer(l).size(),
              alpha,
              rules,
              entries,
              ternary,
              groups,
              states,
              bits,
              maxEntries,
              maxTernary));
    }
    return out;
  }

  /** Entries per switch of the layer, on average. */
  public double entriesPerSwitch() {
    return (double) entries / switches;
  }

  /** TCAM entries per switch of the layer, on average. */
  public double ternaryPerSwitch() {
    return (double) ternary / switches;
  }
}
