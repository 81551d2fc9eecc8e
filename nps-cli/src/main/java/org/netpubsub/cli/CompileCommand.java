package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.camus.NetworkCompile;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.PipelineStats;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.aggregate.ConditionalAction;
import org.netpubsub.compiler.aggregate.ConditionalActions;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Group;
import org.netpubsub.compiler.pipeline.LeafEntry;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.p4.P4Target;
import org.netpubsub.compiler.target.software.StatefulPipeline;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps compile}: packet subscriptions (Camus) to match-action tables — a summary, the
 * resource statistics, the tables of a target, or per event the ports the tables forward it to.
 */
@Command(
    name = "compile",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compiles rules 'FILTER : fwd(P, …);' over the query fields of a message spec into a"
          + " pipeline of match-action tables (a BDD sliced per field, Camus §5) and prints a"
          + " summary; --stats the resources, --eval the ports per event, --out the target's"
          + " files.",
      "Specs: itch, int (built in), a spec YAML (fields: …) or any netpubsub schema."
    })
final class CompileCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--spec",
      required = true,
      paramLabel = "SPEC",
      description = "itch, int, or a spec or schema YAML file.")
  String specName;

  @Option(
      names = "--rules",
      required = true,
      paramLabel = "FILE",
      description = "Rule file (or JSON lines from 'nps workload gen'); - reads stdin.")
  String rulesFile;

  @Option(
      names = "--target",
      defaultValue = "software",
      paramLabel = "T",
      description = "software, openflow or p4 (default: ${DEFAULT-VALUE}).")
  String target;

  @Option(names = "--out", paramLabel = "DIR", description = "Write the target's files here.")
  Path out;

  @Option(
      names = "--alpha",
      defaultValue = "1",
      paramLabel = "N",
      description = "Discretization unit α for int constants (default: 1, exact).")
  long alpha;

  @Option(names = "--stats", description = "Print table sizes, TCAM entries, groups, states.")
  boolean stats;

  @Option(
      names = "--eval",
      paramLabel = "EVENTS.jsonl",
      description =
          "Print, per event, the ports the tables forward it to (JSON lines); aggregates are"
              + " evaluated as at the last hop, in event order at each event's timestamp_ns.")
  Path eval;

  @Option(
      names = "--policy",
      paramLabel = "mr|tr",
      description =
          "Compile a whole fabric (Camus §4): rules per host (fwd(N) or \"host\":\"hN\" is host"
              + " hN), filter sets by memory (mr) or traffic (tr) reduction, every switch compiled"
              + " (exact at the edge, --alpha above); prints per-layer resources. --eval sends"
              + " each event through the fabric and counts traffic per layer.")
  String policy;

  @Option(
      names = "--topology",
      paramLabel = "fattree:K",
      description = "With --policy: the fabric, numbered as the test bed numbers it.")
  String topology;

  @Option(
      names = "--churn",
      paramLabel = "N",
      description =
          "With --policy: time N one-subscription changes (withdrawn by its host, then"
              + " subscribed by another).")
  int churn;

  @Option(
      names = "--warmup",
      description =
          "With --policy: compile the fabric once, untimed, before the timed compilation (JIT"
              + " warm-up: times as a controller that has run a while sees them).")
  boolean warmup;

  @Override
  public Integer call() throws IOException {
    if (!List.of("software", "openflow", "p4").contains(target)) {
      throw new IllegalArgumentException(
          "--target must be software, openflow or p4, not '" + target + "'");
    }
    if (policy != null || topology != null || churn != 0 || warmup) {
      return network();
    }
    MessageSpec messageSpec = CompilerInputs.spec(specName);
    if (target.equals("openflow")) {
      // OpenFlow matches the fields carried in the IPv6 destination; the others widen
      messageSpec = QueryAddressLayout.of(messageSpec).carried();
    }
    List<Rule> rules = CompilerInputs.rules(messageSpec, rulesFile);
    long start = System.nanoTime();
    Compilation c = RuleCompiler.compile(messageSpec, rules, new CompileOptions(alpha));
    double ms = (System.nanoTime() - start) / 1e6;
    PrintWriter w = spec.commandLine().getOut();
    if (eval != null) {
      evaluate(c, CompilerInputs.events(messageSpec, eval), w);
    } else if (stats) {
      printStats(PipelineStats.of(c), ms, w);
    } else {
      summary(c, ms, w);
    }
    if (out != null) {
      write(c);
    }
    w.flush();
    return 0;
  }

  /** {@code --policy}: the whole fabric (see {@link NetworkCompile}). */
  private int network() {
    if (policy == null || topology == null) {
      throw new IllegalArgumentException("--policy and --topology go together");
    }
    if (out != null || churn < 0) {
      throw new IllegalArgumentException(
          out != null ? "--out writes one switch's tables; not with --policy" : "--churn N >= 0");
    }
    PrintWriter w = spec.commandLine().getOut();
    MessageSpec messages = CompilerInputs.spec(specName);
    Map<String, Object> m =
        NetworkCompile.run(
            new NetworkCompile.Request(
                messages,
                rulesFile,
                () ->
                    rulesFile.equals("-")
                        ? BoundedInput.stdin()
                        : BoundedInput.file(Path.of(rulesFile), "rules"),
                RoutingPolicy.parse(policy),
                topology,
                alpha,
                stats,
                eval == null ? null : () -> CompilerInputs.events(messages, eval),
                churn,
                warmup));
    if (json.enabled()) {
      JsonOutput.printLine(w, m);
    } else {
      NetworkCompile.print(m, w);
    }
    w.flush();
    return 0;
  }

  private void summary(Compilation c, double ms, PrintWriter w) {
    Pipeline p = c.pipeline();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "compiled");
    m.put("spec", c.spec().name());
    m.put("rules", c.ruleCount());
    m.put("widened_rules", c.widenedRules());
    m.put("entries", p.entries());
    m.put("groups", p.groups().size());
    m.put("states", p.stateBound());
    m.put("compile_ms", Math.round(ms * 100) / 100.0);
    if (json.enabled()) {
      JsonOutput.printLine(w, m);
    } else {
      w.printf(
          "%d rules (%d widened) → %d entries in %d tables + leaf table, %d groups, %d states,"
              + " compiled in %.1f ms%n",
          c.ruleCount(),
          c.widenedRules(),
          p.entries(),
          c.spec().fields().size(),
          p.groups().size(),
          p.stateBound(),
          ms);
    }
  }

  private void printStats(PipelineStats s, double ms, PrintWriter w) {
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", "stats");
      m.put("compile_ms", Math.round(ms * 100) / 100.0);
      m.put("stats", s);
      m.put("entries", s.entries());
      m.put("ternary", s.ternary());
      m.put("table_bits", s.tableBits());
      m.put("big_table_bits", s.bigTableBits());
      JsonOutput.printLine(w, m);
      return;
    }
    w.printf(
        "%d rules (%d widened), %d BDD nodes, compiled in %.1f ms%n",
        s.rules(), s.widenedRules(), s.bddNodes(), ms);
    w.printf(
        "%-16s %-6s %5s %9s %8s %8s %8s %9s   %s%n",
        "table",
        "match",
        "bits",
        "entries",
        "values",
        "ranges",
        "default",
        "ternary",
        "mapped (bits, ternary + mapping)");
    for (PipelineStats.TableStats t : s.tables()) {
      w.printf(
          "%-16s %-6s %5d %9d %8d %8d %8d %9d   %d, %d + %d%n",
          t.field(),
          t.match(),
          t.width(),
          t.entries(),
          t.values(),
          t.ranges(),
          t.defaults(),
          t.ternary(),
          t.mappedWidth(),
          t.mappedTernary(),
          t.mappingTernary());
    }
    w.printf("%-16s %-6s %5d %9d%n", "leaf", "exact", s.stateBits(), s.leafEntries());
    w.printf(
        "%d entries (%d ternary), %d multicast groups, %d states (%d bits)%n",
        s.entries(), s.ternary(), s.groups(), s.states(), s.stateBits());
    w.printf(
        "table memory %,d bits; one big table: %.3g entries of %d bits, %.3g bits (%.1f× more)%n",
        s.tableBits(),
        s.bigTableEntries(),
        s.bigTableWidth(),
        s.bigTableBits(),
        s.bigTableBits() / Math.max(1, s.tableBits()));
  }

  private void evaluate(Compilation c, List<Event> events, PrintWriter w) {
    StatefulPipeline sw = StatefulPipeline.of(c);
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      int[] ports;
      try {
        ports = sw.forward(e, e.timestampNanos());
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException("event " + i + ": " + bad.getMessage(), bad);
      }
      if (json.enabled()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("event", i);
        m.put("ports", ports);
        JsonOutput.printLine(w, m);
      } else {
        w.println(i + ": " + Arrays.toString(ports));
      }
    }
  }

  private void write(Compilation c) throws IOException {
    Files.createDirectories(out);
    switch (target) {
      case "software" -> writeTables(c, out.resolve("pipeline.json"));
      case "openflow" -> OpenFlowFiles.write(c, out);
      case "p4" -> {
        for (Map.Entry<String, String> f : P4Target.emit(c).entrySet()) {
          Files.writeString(out.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
        }
      }
      default ->
          throw new InvalidInputException(
              "the " + target + " target is not built into this version");
    }
  }

  /**
   * The tables as JSON: per field its entries, then the leaf table and the groups (their ports; a
   * group with conditional actions also lists its action ids), then the conditional actions.
   */
  static void writeTables(Compilation c, Path file) throws IOException {
    Pipeline p = c.pipeline();
    ConditionalActions conditional = c.conditionalActions();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("spec", p.spec().name());
    m.put("state_bits", p.stateBits());
    List<Object> tables = new ArrayList<>();
    for (int f = 0; f < p.spec().fields().size(); f++) {
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("field", p.spec().field(f).name());
      t.put("match", p.spec().field(f).match().label());
      List<Object> entries = new ArrayList<>();
      for (FieldEntry e : p.table(f)) {
        entries.add(
            Map.of(
                "state",
                e.state(),
                "match",
                e.match().toString(),
                "next",
                e.next(),
                "priority",
                e.priority()));
      }
      t.put("entries", entries);
      tables.add(t);
    }
    m.put("tables", tables);
    List<Object> leaves = new ArrayList<>();
    for (LeafEntry e : p.leafTable()) {
      leaves.add(Map.of("state", e.state(), "group", e.group()));
    }
    m.put("leaf", leaves);
    List<Object> groups = new ArrayList<>();
    for (Group g : p.groups()) {
      Map<String, Object> group = new LinkedHashMap<>();
      group.put("group", g.id());
      group.put("ports", conditional.ports(g.actions()));
      if (Arrays.stream(g.actions()).anyMatch(ConditionalActions::isConditional)) {
        group.put("actions", g.actions());
      }
      groups.add(group);
    }
    m.put("groups", groups);
    if (!conditional.isEmpty()) {
      List<Object> actions = new ArrayList<>();
      for (ConditionalAction a : conditional.all()) {
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("id", a.id());
        action.put("rule", a.rule());
        action.put("port", a.port());
        action.put(
            "conditions",
            a.conditions().stream()
                .map(x -> Map.of("slot", x.slot(), "aggregate", FilterPrinter.print(x.atom())))
                .toList());
        actions.add(action);
      }
      m.put("conditional_actions", actions);
    }
    Files.writeString(
        file,
        JsonOutput.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(m),
        StandardCharsets.UTF_8);
  }
}
