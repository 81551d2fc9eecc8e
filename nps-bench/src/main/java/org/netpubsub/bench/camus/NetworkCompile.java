package org.netpubsub.bench.camus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.PipelineStats;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.network.camus.CamusRouting;
import org.netpubsub.network.camus.Dissemination;
import org.netpubsub.network.camus.FatTree;
import org.netpubsub.network.camus.Hierarchy;
import org.netpubsub.network.camus.LayerStats;
import org.netpubsub.network.camus.PacketSubscription;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.RoutingUpdate;
import org.netpubsub.network.camus.Traffic;
import org.netpubsub.network.camus.UpPortChoice;

/**
 * {@code nps compile --policy mr|tr --topology fattree:K}: Camus's routing on a whole fabric —
 * subscriptions per host, Algorithm 1, every switch compiled (exact at the edge, α above) and
 * timed, then per layer the rules, entries, TCAM entries and groups (Figure 13a–c); {@code --eval}
 * sends each event hop by hop from a publisher and counts the traffic per layer against what was
 * needed (13d); {@code --churn N} times N single-subscription changes, each withdrawn by its host
 * and subscribed by another (13e/f). The timing lives here, the files are read by the command
 * ({@code CompileCommand}); the routing itself is pure ({@code org.netpubsub.network.camus}).
 */
public final class NetworkCompile {
  /** What the command asked for. */
  public record Request(
      MessageSpec spec,
      String rulesFile, // named in errors
      Supplier<String> rules, // its text, read when needed
      RoutingPolicy policy,
      String topology,
      long alpha,
      boolean stats,
      Supplier<List<Event>> eval, // --eval's events, read when needed; null without it
      int churn,
      boolean warmup) {}

  private static final ObjectMapper READER = new ObjectMapper();

  private NetworkCompile() {}

  /** The report, as {@code --json} prints it; {@link #print} writes it as text. */
  public static Map<String, Object> run(Request q) {
    Hierarchy h = Hierarchy.of(topology(q.topology()));
    Map<Ipv6Address, List<PacketSubscription>> subs =
        subscriptions(q.spec(), q.rulesFile(), q.rules(), h.hosts().size(), q.topology());
    int count = subs.values().stream().mapToInt(List::size).sum();
    if (q.warmup()) {
      CamusRouting.compile(h, q.spec(), q.policy(), q.alpha(), subs);
      System.gc(); // the warm-up's garbage is not the timed compilation's
    }
    Timer timer = new Timer(h);
    CamusRouting r = CamusRouting.compile(h, q.spec(), q.policy(), q.alpha(), subs, timer);
    double totalMs = timer.stop();

    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "network");
    m.put("spec", q.spec().name());
    m.put("topology", q.topology());
    m.put("policy", q.policy().label());
    m.put("alpha", q.alpha());
    m.put("hosts", h.hosts().size());
    m.put("switches", h.bottomUp().size());
    m.put("subscriptions", count);
    m.put("compile_ms", round(totalMs));
    m.put("compile_cpu_ms", round(timer.cpuMs()));
    m.put("compile_gc_ms", timer.gcMs());
    m.put("warmup", q.warmup());
    List<Map<String, Object>> layers = new ArrayList<>();
    for (LayerStats s : LayerStats.of(r)) {
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("layer", s.layer());
      l.put("switches", s.switches());
      l.put("alpha", s.alpha());
      l.put("rules", s.rules());
      l.put("entries", s.entries());
      l.put("ternary", s.ternary());
      l.put("groups", s.groups());
      l.put("states", s.states());
      l.put("table_bits", s.tableBits());
      l.put("max_entries", s.maxEntries());
      l.put("max_ternary", s.maxTernary());
      l.put("compile_ms", round(timer.layerMs(layers.size())));
      l.put("compile_cpu_ms", round(timer.layerCpuMs(layers.size())));
      layers.add(l);
    }
    m.put("layers", layers);
    if (q.stats()) {
      List<Map<String, Object>> switches = new ArrayList<>();
      for (long s : h.bottomUp()) {
        PipelineStats p = PipelineStats.of(r.compilation(s));
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("dpid", s);
        e.put("layer", h.layerName(h.layerOf(s)));
        e.put("rules", p.rules());
        e.put("widened_rules", p.widenedRules());
        e.put("entries", p.entries());
        e.put("ternary", p.ternary());
        e.put("groups", p.groups());
        e.put("states", p.states());
        e.put("compile_ms", round(timer.switchMs(s)));
        switches.add(e);
      }
      m.put("per_switch", switches);
    }
    if (q.eval() != null) {
      m.put("traffic", traffic(r, q.eval().get(), subs));
    }
    if (q.churn() > 0) {
      m.put("recompile", churn(r, q.churn(), h));
    }
    m.put("jvm", Runtime.version().toString());
    m.put("max_heap_mb", Runtime.getRuntime().maxMemory() >> 20);
    return m;
  }

  /** {@code fattree:K}, numbered as the test bed numbers it. */
  static org.netpubsub.network.topology.Topology topology(String spec) {
    String[] p = spec.split(":", 2);
    if (p.length == 2 && p[0].equals("fattree")) {
      try {
        return FatTree.of(Integer.parseInt(p[1]));
      } catch (NumberFormatException e) {
        // below
      }
    }
    throw new InvalidInputException("--topology must be fattree:K (K even), not '" + spec + "'");
  }

  /**
   * Subscriptions per host: rule files ({@code FILTER : fwd(N);}) or JSON lines from {@code nps
   * workload gen} with {@code "host":"hN"} or {@code "ports":[N, …]}; N is host hN of the fat tree.
   * Ids are {@code line L} (with {@code hN} appended when a line names several hosts).
   */
  static Map<Ipv6Address, List<PacketSubscription>> subscriptions(
      MessageSpec spec, String file, Supplier<String> rules, int hosts, String topology) {
    String text = rules.get();
    Map<Ipv6Address, List<PacketSubscription>> out = new TreeMap<>();
    if (!text.stripLeading().startsWith("{")) {
      for (Rule r : RuleParser.parse(spec.schema(), text)) {
        int[] ports = r.ports();
        for (int n : ports) {
          String id = ports.length == 1 ? r.id() : r.id() + " h" + n;
          out.computeIfAbsent(host(n, hosts, topology, file + " " + r.id()), k -> new ArrayList<>())
              .add(new PacketSubscription(id, r.filter(), r.dnf()));
        }
      }
      return out;
    }
    String[] lines = text.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      String where = file + " line " + (i + 1);
      JsonNode n;
      try {
        n = READER.readTree(lines[i]);
      } catch (IOException e) {
        throw new InvalidInputException(where + ": not JSON: " + e.getMessage());
      }
      if (!n.path("kind").asText("filter").equals("filter")) {
        continue;
      }
      List<Integer> targets = new ArrayList<>();
      if (n.path("host").isTextual() && n.get("host").asText().matches("h[0-9]+")) {
        targets.add(Integer.parseInt(n.get("host").asText().substring(1)));
      } else if (n.path("ports").isArray() && !n.get("ports").isEmpty()) {
        n.get("ports").forEach(p -> targets.add(p.asInt(-1)));
      }
      if (!n.path("filter").isTextual() || targets.isEmpty()) {
        throw new InvalidInputException(
            where + ": a subscription line needs \"filter\" and \"host\":\"hN\" or \"ports\"");
      }
      for (int t : targets) {
        String id = "line " + (i + 1) + (targets.size() == 1 ? "" : " h" + t);
        try {
          PacketSubscription s =
              PacketSubscription.parse(spec.schema(), id, n.get("filter").asText());
          out.computeIfAbsent(host(t, hosts, topology, where), k -> new ArrayList<>()).add(s);
        } catch (InvalidInputException e) {
          throw new InvalidInputException(where + ": " + e.render());
        }
      }
    }
    return out;
  }

  private static Ipv6Address host(int n, int hosts, String topology, String where) {
    if (n < 1 || n > hosts) {
      throw new InvalidInputException(
          where
              + ": host h"
              + n
              + ", but "
              + topology
              + " has h1..h"
              + hosts
              + " (generate with --hosts "
              + hosts
              + ")");
    }
    return FatTree.hostAddress(n);
  }

  /**
   * Event i is published by host h((i mod H) + 1); who should receive it is decided by evaluating
   * every subscription directly, so misses and unwanted deliveries are counted, not assumed away.
   */
  private static Map<String, Object> traffic(
      CamusRouting r, List<Event> events, Map<Ipv6Address, List<PacketSubscription>> subs) {
    Hierarchy h = r.hierarchy();
    Dissemination d = Dissemination.of(r, UpPortChoice.byHash());
    Traffic t = new Traffic(h);
    long expected = 0;
    long delivered = 0;
    long missed = 0;
    long unwanted = 0;
    long duplicates = 0;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      Ipv6Address publisher = FatTree.hostAddress(i % h.hosts().size() + 1);
      Dissemination.Result res = d.publish(publisher, r.spec().values(e));
      BitSet want = new BitSet();
      subs.forEach(
          (host, list) -> {
            if (list.stream().anyMatch(s -> FilterEvaluator.matches(s.dnf(), e))) {
              want.set(h.hostIndex(host));
            }
          });
      t.add(res, want);
      want.clear(h.hostIndex(publisher));
      BitSet got = res.receivers();
      expected += want.cardinality();
      delivered += got.cardinality();
      BitSet miss = (BitSet) want.clone();
      miss.andNot(got);
      missed += miss.cardinality();
      got.andNot(want);
      unwanted += got.cardinality();
      duplicates += Arrays.stream(res.copies()).filter(c -> c > 1).count();
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("events", events.size());
    m.put("expected_deliveries", expected);
    m.put("delivered", delivered);
    m.put("missed", missed);
    m.put("unwanted", unwanted);
    m.put("duplicates", duplicates);
    List<Map<String, Object>> layers = new ArrayList<>();
    for (Traffic.LayerTraffic l : t.layers()) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("layer", l.layer());
      x.put("sent", l.sent());
      x.put("needed", l.needed());
      x.put("extra", l.extra());
      x.put("extra_pct", round(100 * l.extraRatio()));
      x.put("sent_up", l.sentUp());
      x.put("needed_up", l.neededUp());
      layers.add(x);
    }
    m.put("layers", layers);
    return m;
  }

  /**
   * N times: a random subscription moves — its host withdraws it, then another random host
   * subscribes it (a subscriber changed its interest); each of the 2N updates is timed (seeded, so
   * runs compare).
   */
  private static Map<String, Object> churn(CamusRouting r, int n, Hierarchy h) {
    Random rnd = new Random(1);
    if (r.subscriptions().isEmpty()) {
      throw new InvalidInputException("--churn needs at least one subscription");
    }
    List<Double> totals = new ArrayList<>();
    List<Double> cpuTotals = new ArrayList<>();
    List<List<Double>> perLayer = new ArrayList<>();
    List<List<Double>> cpuPerLayer = new ArrayList<>();
    for (int l = 0; l < h.layerCount(); l++) {
      perLayer.add(new ArrayList<>());
      cpuPerLayer.add(new ArrayList<>());
    }
    long switches = 0;
    long operations = 0;
    for (int i = 0; i < n; i++) {
      List<Ipv6Address> subscribed = new ArrayList<>(r.subscriptions().keySet());
      Ipv6Address from = subscribed.get(rnd.nextInt(subscribed.size()));
      List<PacketSubscription> mine = r.subscriptions(from);
      PacketSubscription s = mine.get(rnd.nextInt(mine.size()));
      int other = rnd.nextInt(h.hosts().size() - 1);
      Ipv6Address to = h.hosts().get(other >= h.hostIndex(from) ? other + 1 : other);
      for (boolean withdraw : new boolean[] {true, false}) {
        Timer t = new Timer(h);
        RoutingUpdate u =
            withdraw
                ? r.update(from, List.of(), List.of(s.id()), t)
                : r.update(to, List.of(s), List.of(), t);
        totals.add(t.stop());
        cpuTotals.add(t.cpuMs());
        for (int l = 0; l < h.layerCount(); l++) {
          perLayer.get(l).add(t.layerMs(l));
          cpuPerLayer.get(l).add(t.layerCpuMs(l));
        }
        switches += u.switches();
        operations += u.operations();
      }
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("updates", totals.size());
    m.put("median_ms", round(median(totals)));
    m.put("mean_ms", round(totals.stream().mapToDouble(x -> x).average().orElse(0)));
    m.put("max_ms", round(totals.stream().mapToDouble(x -> x).max().orElse(0)));
    m.put("median_cpu_ms", round(median(cpuTotals)));
    m.put("switches_per_update", round((double) switches / totals.size()));
    m.put("operations_per_update", round((double) operations / totals.size()));
    List<Map<String, Object>> layers = new ArrayList<>();
    for (int l = 0; l < h.layerCount(); l++) {
      layers.add(
          Map.of(
              "layer",
              h.layerName(l),
              "median_ms",
              round(median(perLayer.get(l))),
              "median_cpu_ms",
              round(median(cpuPerLayer.get(l)))));
    }
    m.put("layers", layers);
    return m;
  }

  /** The report of {@link #run} as text. */
  public static void print(Map<String, Object> m, PrintWriter w) {
    w.printf(
        "%s, %s, α = %d above the edge: %d subscriptions on %d hosts → %d switches compiled in"
            + " %.1f ms (%.1f ms CPU)%n",
        m.get("topology"),
        m.get("policy").toString().toUpperCase(java.util.Locale.ROOT),
        (Long) m.get("alpha"),
        (Integer) m.get("subscriptions"),
        (Integer) m.get("hosts"),
        (Integer) m.get("switches"),
        (Double) m.get("compile_ms"),
        (Double) m.get("compile_cpu_ms"));
    w.printf(
        "%-12s %8s %10s %10s %10s %10s %8s %12s%n",
        "layer", "switches", "alpha", "rules", "entries", "ternary", "groups", "compile ms");
    for (Object o : (List<?>) m.get("layers")) {
      Map<?, ?> l = (Map<?, ?>) o;
      w.printf(
          "%-12s %8d %10d %10d %10d %10d %8d %12.1f%n",
          l.get("layer"),
          l.get("switches"),
          l.get("alpha"),
          l.get("rules"),
          l.get("entries"),
          l.get("ternary"),
          l.get("groups"),
          l.get("compile_ms"));
    }
    if (m.get("per_switch") instanceof List<?> list) {
      w.printf(
          "%-6s %-12s %10s %10s %10s %8s %12s%n",
          "switch", "layer", "rules", "entries", "ternary", "groups", "compile ms");
      for (Object o : list) {
        Map<?, ?> s = (Map<?, ?>) o;
        w.printf(
            "s%-5d %-12s %10d %10d %10d %8d %12.1f%n",
            s.get("dpid"),
            s.get("layer"),
            s.get("rules"),
            s.get("entries"),
            s.get("ternary"),
            s.get("groups"),
            s.get("compile_ms"));
      }
    }
    if (m.get("traffic") instanceof Map<?, ?> t) {
      w.printf(
          "%d events: %d deliveries expected, %d made, %d missed, %d unwanted, %d duplicates%n",
          t.get("events"),
          t.get("expected_deliveries"),
          t.get("delivered"),
          t.get("missed"),
          t.get("unwanted"),
          t.get("duplicates"));
      for (Object o : (List<?>) t.get("layers")) {
        Map<?, ?> l = (Map<?, ?>) o;
        w.printf(
            "  %-12s sent %8d, needed %8d, extra %8d (%.1f %%; up: %d sent, %d needed)%n",
            l.get("layer"),
            l.get("sent"),
            l.get("needed"),
            l.get("extra"),
            l.get("extra_pct"),
            l.get("sent_up"),
            l.get("needed_up"));
      }
    }
    if (m.get("recompile") instanceof Map<?, ?> c) {
      w.printf(
          "%d updates of one subscription: median %.2f ms, max %.2f ms, %.1f switches and %.1f"
              + " table writes each%n",
          c.get("updates"),
          c.get("median_ms"),
          c.get("max_ms"),
          c.get("switches_per_update"),
          c.get("operations_per_update"));
    }
  }

  /**
   * Times each switch as the routing reports it compiled, from the previous report to this one:
   * wall time, and the compiling thread's CPU time, which other processes on a shared machine do
   * not inflate (garbage collection in other threads is not in it).
   */
  private static final class Timer implements CamusRouting.Observer {
    private static final java.lang.management.ThreadMXBean CPU =
        java.lang.management.ManagementFactory.getThreadMXBean();
    private final Hierarchy h;
    private final long start = System.nanoTime();
    private final long cpuStart = CPU.getCurrentThreadCpuTime();
    private final long gcStart = gcMillis();
    private final Map<Long, Double> perSwitch = new TreeMap<>();
    private final double[] perLayer;
    private final double[] cpuPerLayer;
    private long last = start;
    private long cpuLast = cpuStart;
    private double cpuTotal;
    private long gcTotal;

    Timer(Hierarchy h) {
      this.h = h;
      this.perLayer = new double[h.layerCount()];
      this.cpuPerLayer = new double[h.layerCount()];
    }

    @Override
    public void compiled(long dpid, Compilation c) {
      long now = System.nanoTime();
      long cpu = CPU.getCurrentThreadCpuTime();
      double ms = (now - last) / 1e6;
      perSwitch.merge(dpid, ms, Double::sum);
      perLayer[h.layerOf(dpid)] += ms;
      cpuPerLayer[h.layerOf(dpid)] += (cpu - cpuLast) / 1e6;
      last = now;
      cpuLast = cpu;
    }

    /** The wall time since the start; {@link #cpuMs} is the CPU time. */
    double stop() {
      cpuTotal = (CPU.getCurrentThreadCpuTime() - cpuStart) / 1e6;
      gcTotal = gcMillis() - gcStart;
      return (System.nanoTime() - start) / 1e6;
    }

    double cpuMs() {
      return cpuTotal;
    }

    /** Milliseconds the collectors reported between start and stop (in other threads). */
    long gcMs() {
      return gcTotal;
    }

    private static long gcMillis() {
      long ms = 0;
      for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
        ms += Math.max(0, gc.getCollectionTime());
      }
      return ms;
    }

    double layerMs(int layer) {
      return perLayer[layer];
    }

    double layerCpuMs(int layer) {
      return cpuPerLayer[layer];
    }

    double switchMs(long dpid) {
      return perSwitch.getOrDefault(dpid, 0.0);
    }
  }

  private static double median(List<Double> xs) {
    if (xs.isEmpty()) {
      return 0;
    }
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private static double round(double x) {
    return Math.round(x * 100) / 100.0;
  }
}
