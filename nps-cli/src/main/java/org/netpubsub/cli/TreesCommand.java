package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.netpubsub.network.multicast.BsidSimulation;
import org.netpubsub.network.multicast.Graph;
import org.netpubsub.network.multicast.GroupGenerator;
import org.netpubsub.network.multicast.MemberModel;
import org.netpubsub.network.multicast.ShortestPathTrees;
import org.netpubsub.network.multicast.TreeStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps trees}: SNAPS §IV-A. Builds seeded groups' multicast trees on a topology and counts
 * the replication segments (BSIDs) they need with and without sharing (docs/multicast.md).
 */
@Command(
    name = "trees",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Simulates SNAPS multicast trees (Figs. 5-7): N groups, each a root drawn uniformly from the"
          + " border nodes and M members among the other border nodes, get a shortest-path tree"
          + " (direct, or through the rendezvous point: the node closest on average to the border"
          + " nodes). Every tree goes to two segment registries, one sharing segments by"
          + " Algorithm 1 and one not; reports the average BSIDs per group of each, their ratio,"
          + " and the running averages at checkpoints.",
      "Border nodes: periphery (degree <= 2, the rim where edge brokers sit; default) or all."
          + " Locality members: the first uniform, each next with weight e^(-2d), d its hop"
          + " distance to the previous member. A disconnected topology is cut to its largest"
          + " component."
    })
final class TreesCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--topology",
      required = true,
      paramLabel = "zoo:NAME|FILE",
      description =
          "A Topology Zoo network from topohub in testbed/.venv (e.g. zoo:TataNld), or a NetworkX"
              + " node-link JSON file.")
  String topology;

  @Option(
      names = "--groups",
      defaultValue = "1000",
      paramLabel = "N",
      description = "Groups (default: ${DEFAULT-VALUE}).")
  int groups;

  @Option(
      names = "--group-size",
      defaultValue = "20",
      paramLabel = "M",
      description = "Members per group, root excluded (default: ${DEFAULT-VALUE}).")
  int groupSize;

  @Option(
      names = "--members",
      defaultValue = "random",
      paramLabel = "random|locality",
      description = "How members are drawn (default: ${DEFAULT-VALUE}).")
  String members;

  @Option(
      names = "--strategy",
      defaultValue = "direct",
      paramLabel = "direct|rp",
      description = "Tree strategy (default: ${DEFAULT-VALUE}).")
  String strategy;

  @Option(
      names = "--border",
      defaultValue = "periphery",
      paramLabel = "periphery|all",
      description = "Which nodes host roots and members (default: ${DEFAULT-VALUE}).")
  String border;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "S",
      description = "Seed of every random choice (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--checkpoint-every",
      paramLabel = "K",
      description = "Report running averages every K groups (default: groups / 10).")
  Integer every;

  @Override
  public Integer call() {
    MemberModel model = parse(members, "--members", "random", "locality", MemberModel.values());
    TreeStrategy tree = parse(strategy, "--strategy", "direct", "rp", TreeStrategy.values());
    if (!border.equals("periphery") && !border.equals("all")) {
      throw new IllegalArgumentException("--border takes periphery or all, not '" + border + "'");
    }
    if (groups < 1 || groupSize < 1 || (every != null && every < 1)) {
      throw new IllegalArgumentException(
          "--groups, --group-size and --checkpoint-every must be positive");
    }
    NodeLinkGraph.Loaded loaded = NodeLinkGraph.load(topology);
    Graph g = loaded.graph();
    List<Integer> borderNodes =
        IntStream.range(0, g.size())
            .filter(v -> border.equals("all") || g.degree(v) <= 2)
            .boxed()
            .toList();
    if (borderNodes.isEmpty()) {
      throw new IllegalArgumentException(topology + " has no " + border + " nodes");
    }
    int rp = ShortestPathTrees.rendezvousPoint(g, borderNodes);
    GroupGenerator generator = new GroupGenerator(g, borderNodes, groupSize, model, seed);
    long start = System.nanoTime();
    List<BsidSimulation.Checkpoint> points =
        BsidSimulation.run(
            g, generator, tree, rp, groups, every == null ? Math.max(1, groups / 10) : every);
    double seconds = (System.nanoTime() - start) / 1e9;
    PrintWriter err = spec.commandLine().getErr();
    err.printf("trees: %d groups on %s in %.2f s%n", groups, topology, seconds);
    err.flush();
    report(loaded, borderNodes.size(), rp, points);
    return 0;
  }

  private void report(
      NodeLinkGraph.Loaded loaded,
      int borderCount,
      int rp,
      List<BsidSimulation.Checkpoint> points) {
    BsidSimulation.Checkpoint last = points.get(points.size() - 1);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("topology", topology);
    m.put("nodes", loaded.graph().size());
    m.put("links", loaded.graph().links());
    m.put("dropped_nodes", loaded.droppedNodes());
    m.put("border", border);
    m.put("border_nodes", borderCount);
    m.put("strategy", strategy);
    m.put("rp", strategy.equals("rp") ? loaded.names().get(rp) : null);
    m.put("members", members);
    m.put("groups", groups);
    m.put("group_size", groupSize);
    m.put("seed", seed);
    m.put("avg_tree_nodes", (double) last.treeNodes() / last.groups());
    m.put("sharing_per_group", last.sharingPerGroup());
    m.put("independent_per_group", last.independentPerGroup());
    m.put("ratio", last.ratio());
    List<Map<String, Object>> rows = new ArrayList<>();
    for (BsidSimulation.Checkpoint c : points) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("groups", c.groups());
      row.put("sharing", c.sharing());
      row.put("independent", c.independent());
      row.put("sharing_per_group", c.sharingPerGroup());
      row.put("independent_per_group", c.independentPerGroup());
      row.put("ratio", c.ratio());
      rows.add(row);
    }
    m.put("checkpoints", rows);
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      JsonOutput.printLine(out, m);
      return;
    }
    out.printf(
        "%s: %d nodes, %d links%s; %d %s border nodes; %s trees%s, %s members%n",
        topology,
        loaded.graph().size(),
        loaded.graph().links(),
        loaded.droppedNodes() == 0
            ? ""
            : " (largest component; " + loaded.droppedNodes() + " nodes dropped)",
        borderCount,
        border,
        strategy,
        strategy.equals("rp") ? " via " + loaded.names().get(rp) : "",
        members);
    out.printf("%7s %14s %14s %7s%n", "groups", "BSIDs/group", "no sharing", "ratio");
    for (BsidSimulation.Checkpoint c : points) {
      out.printf(
          "%7d %14.3f %14.3f %7.3f%n",
          c.groups(), c.sharingPerGroup(), c.independentPerGroup(), c.ratio());
    }
    out.flush();
  }

  /** {@code value} as the constant at the same position as its name among {@code names}. */
  private static <E> E parse(String value, String option, String first, String second, E[] all) {
    if (value.equals(first)) {
      return all[0];
    }
    if (value.equals(second)) {
      return all[1];
    }
    throw new IllegalArgumentException(
        option + " takes " + first + " or " + second + ", not '" + value + "'");
  }
}
