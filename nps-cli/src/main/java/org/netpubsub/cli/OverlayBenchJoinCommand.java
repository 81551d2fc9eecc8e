package org.netpubsub.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.overlay.JoinBenchmark;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import org.netpubsub.edge.overlay.ZkAuth;
import org.netpubsub.edge.overlay.ZnodeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps overlay bench-join}: the coordination layer under simultaneous joins (Fig. 6c/6f). */
@Command(
    name = "bench-join",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measures ZooKeeper's response time, znodes and watches while N subscribers join at once"
          + " (the paper's Figures 6c and 6f); one JSON line per N with --json."
    })
final class OverlayBenchJoinCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--zookeeper",
      paramLabel = "HOST:PORT",
      description = "A running server (default: an embedded one on a free port).")
  String zookeeper;

  @Option(
      names = "--zookeeper-auth",
      paramLabel = "FILE",
      description =
          "With --zookeeper: digest credentials, one line user:password, for every client of the"
              + " run (default: none). The embedded server always gets fresh random ones.")
  java.nio.file.Path zookeeperAuth;

  @Option(
      names = "--subscribers",
      defaultValue = "2000,4000,6000,8000,10000",
      split = ",",
      paramLabel = "N,...",
      description = "Joining subscribers per round (default: ${DEFAULT-VALUE}).")
  List<Integer> subscribers;

  @Option(names = "--edges", defaultValue = "20", paramLabel = "N", description = "Edge clients.")
  int edges;

  @Option(names = "--topics", defaultValue = "1000", paramLabel = "N", description = "Topics.")
  int topics;

  @Option(
      names = "--interest",
      defaultValue = "100",
      paramLabel = "N",
      description =
          "Topics each edge's subscribers use (the paper: 100 of 1000; default: ${DEFAULT-VALUE}).")
  int interest;

  @Option(
      names = "--routing-brokers",
      defaultValue = "2",
      paramLabel = "N",
      description = "Routing brokers (index, leader, topic caches; default: ${DEFAULT-VALUE}).")
  int routingBrokers;

  @Option(
      names = "--rate",
      defaultValue = "0",
      paramLabel = "JOINS/S",
      description = "Pace the joins at this rate (default 0: all at once).")
  double rate;

  @Option(
      names = "--fresh-topics",
      description =
          "The joins create the topics too (default: every topic exists beforehand, with a"
              + " publisher entry, assigned, as in a running system).")
  boolean freshTopics;

  @Option(
      names = "--model",
      defaultValue = "subscriber",
      paramLabel = "MODEL",
      description =
          "How joins become znodes: subscriber (one znode per subscriber, each its own create: the"
              + " paper's), batched (the same znodes through one group-commit writer per edge),"
              + " edge (one entry per topic and edge, through its writer: the edge broker's);"
              + " default: ${DEFAULT-VALUE}.")
  String model;

  @Option(
      names = "--no-fsync",
      description =
          "Embedded server without fsync of its transaction log (forceSync=no): not durable,"
              + " for measuring what the fsync costs.")
  boolean noFsync;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description = "The embedded server's data directory (default: a new temporary one).")
  java.nio.file.Path data;

  @Option(
      names = "--tick",
      defaultValue = "200",
      paramLabel = "MS",
      description = "The embedded server's tick (default: ${DEFAULT-VALUE}).")
  int tick;

  @Option(
      names = "--warmup",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Unmeasured rounds first, all at once at the first size (default: ${DEFAULT-VALUE}):"
              + " a running server and brokers have their code compiled; without them the first"
              + " round measures the JIT.")
  int warmup;

  @Override
  public Integer call() throws Exception {
    if (edges < 1
        || topics < 1
        || interest < 1
        || routingBrokers < 0
        || rate < 0
        || warmup < 0
        || tick < 1
        || subscribers.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException(
          "--edges, --topics, --interest, --subscribers and --tick must be >= 1,"
              + " --routing-brokers, --rate and --warmup >= 0");
    }
    JoinBenchmark.Model m;
    try {
      m = JoinBenchmark.Model.valueOf(model.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--model must be subscriber, batched or edge, not '" + model + "'");
    }
    if (zookeeperAuth != null && zookeeper == null) {
      throw new IllegalArgumentException("--zookeeper-auth applies with --zookeeper");
    }
    EmbeddedZooKeeper embedded = null;
    String connect = zookeeper;
    // nothing runs ZooKeeper world-writable: the embedded server's znodes are this run's only
    ZkAuth auth = zookeeperAuth != null ? ZkAuthFile.read(zookeeperAuth) : null;
    if (connect == null) {
      auth = ZkAuth.random("nps-bench");
      embedded =
          EmbeddedZooKeeper.start(
              new InetSocketAddress("127.0.0.1", 0),
              data != null ? data : Files.createTempDirectory("nps-zk-bench"),
              tick,
              !noFsync);
      connect = embedded.connectString();
    }
    InetSocketAddress server = ZnodeData.address(connect.split(",")[0].split("/")[0]);
    PrintWriter out = spec.commandLine().getOut();
    try {
      JoinBenchmark.sweep(
          connect,
          auth,
          server,
          new JoinBenchmark.Setup(
              subscribers.get(0), edges, topics, interest, routingBrokers, rate, freshTopics, m),
          subscribers,
          warmup,
          r -> print(out, r));
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
    return 0;
  }

  private void print(PrintWriter out, JoinBenchmark.Result r) {
    if (json.enabled()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("kind", "overlay-join");
      o.put("subscribers", r.setup().subscribers());
      o.put("edges", r.setup().edges());
      o.put("topics", r.setup().topics());
      o.put("interest", r.setup().interest());
      o.put("routing_brokers", r.setup().routingBrokers());
      o.put("rate", r.setup().rate());
      o.put("model", r.setup().model().name().toLowerCase(java.util.Locale.ROOT));
      if (zookeeper == null) {
        o.put("fsync", !noFsync);
      }
      o.put("p50_ms", r.p50());
      o.put("p99_ms", r.p99());
      o.put("max_ms", r.max());
      o.put("requests", r.requests());
      o.put("request_p50_ms", r.requestP50());
      o.put("request_p99_ms", r.requestP99());
      o.put("entries", r.entries());
      o.put("znodes", r.znodes());
      o.put("watches", r.watches());
      o.put("seconds", r.seconds());
      o.put("fresh_topics", r.setup().freshTopics());
      o.put("assigned_seconds", r.assignedSeconds());
      o.put("visible_seconds", r.visibleSeconds());
      o.put("server_avg_ms", r.serverAvg());
      o.put("server_update_p50_ms", r.serverUpdateP50());
      o.put("server_update_p99_ms", r.serverUpdateP99());
      o.put("server_read_p99_ms", r.serverReadP99());
      o.put("server_reads", r.serverReads());
      o.put("server_updates", r.serverUpdates());
      JsonOutput.printLine(out, o);
    } else {
      out.printf(
          "%6d subscribers: join p50 %.1f ms, p99 %.1f ms; %d requests, p99 %.1f ms;"
              + " server update p99 %.0f ms; %d znodes, %d watches (%.1f s)%n",
          r.setup().subscribers(),
          r.p50(),
          r.p99(),
          r.requests(),
          r.requestP99(),
          r.serverUpdateP99(),
          r.znodes(),
          r.watches(),
          r.seconds());
      out.flush();
    }
  }
}
