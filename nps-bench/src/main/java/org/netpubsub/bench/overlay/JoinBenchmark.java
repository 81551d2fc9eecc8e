package org.netpubsub.bench.overlay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.netpubsub.bench.stats.Latencies;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.overlay.AssignmentStrategy;
import org.netpubsub.edge.overlay.Endpoint;
import org.netpubsub.edge.overlay.EntryWriter;
import org.netpubsub.edge.overlay.FourLetterWords;
import org.netpubsub.edge.overlay.OverlayTree;
import org.netpubsub.edge.overlay.OverlayView;
import org.netpubsub.edge.overlay.RoutingBroker;
import org.netpubsub.edge.overlay.TopicState;
import org.netpubsub.edge.overlay.ZkAuth;
import org.netpubsub.edge.overlay.ZnodeData;
import org.netpubsub.edge.overlay.ZnodePaths;

/**
 * The paper's coordination-layer experiment (§3.3.2, Figures 6c and 6f) with the overlay's own
 * watchers: {@code routingBrokers} real {@link RoutingBroker}s (index, leader, assigned-topic
 * caches) and {@code edges} edge clients that each cache the {@code interest} topics (of {@code
 * topics}) their subscribers use, as an edge broker does. N subscribers then join, each one
 * ephemeral entry {@code /topics/<t>/sub/<edge>-<i>} (the paper's load: a znode per endpoint; a
 * real edge broker writes one per topic). The joins are fired at once ({@code rate} 0) or paced at
 * {@code rate} per second, in one of three load {@link Model}s: each subscriber its own create (the
 * paper's), the same znodes through one group-commit {@link EntryWriter} per edge, or the edge
 * broker's own (one entry per topic and edge, through its writer). Measures each join's latency (to
 * its entry committed) and each ZooKeeper request's as the client sees it (queueing included), the
 * server's own latencies, reads, znodes and watches ({@code mntr}), and how long until the routing
 * brokers' caches show every new entry. Unless {@code freshTopics}, the topics exist beforehand (a
 * publisher entry each, assigned, cached): subscribers join a running system, as in the paper,
 * where publishers were up first. Each round runs in its own namespace, deleted after it (so that
 * the server does not reap one round's containers during the next).
 */
public final class JoinBenchmark {
  /** How joins become znodes. */
  public enum Model {
    /** One znode per subscriber, each its own create (the paper's implementation). */
    SUBSCRIBER,
    /** One znode per subscriber, through one group-commit writer per edge. */
    BATCHED,
    /** One entry per (topic, edge), through one group-commit writer per edge (the edge broker). */
    EDGE
  }

  /** One round's settings. */
  public record Setup(
      int subscribers,
      int edges,
      int topics,
      int interest,
      int routingBrokers,
      double rate,
      boolean freshTopics,
      Model model) {
    public Setup {
      if (subscribers < 1 || edges < 1 || topics < 1 || interest < 1 || routingBrokers < 0) {
        throw new IllegalArgumentException(
            "subscribers, edges, topics, interest >= 1 and routing brokers >= 0");
      }
      if (rate < 0) {
        throw new IllegalArgumentException("rate must be >= 0 (0: all at once)");
      }
      interest = Math.min(interest, topics);
      java.util.Objects.requireNonNull(model, "model");
    }
  }

  /** One round's result; latencies in milliseconds (p50, p99, max: per join, to its commit). */
  public record Result(
      Setup setup,
      double p50,
      double p99,
      double max,
      long requests, // ZooKeeper requests the joins took (multi, create, ...)
      double requestP50,
      double requestP99,
      long entries, // distinct znodes the joins wrote
      long znodes, // the joins added below the round's namespace
      long watches,
      double seconds,
      double assignedSeconds, // first join to every topic assigned (-1: no routing brokers)
      double visibleSeconds, // first join to every entry in its routing broker's cache (-1: none)
      double serverAvg,
      double serverUpdateP50,
      double serverUpdateP99,
      double serverReadP99,
      long serverReads,
      long serverUpdates) {}

  private JoinBenchmark() {}

  /**
   * {@code warmup} unmeasured rounds at the first size, all at once (the JIT of a running server
   * and brokers), then one round of {@code setup} per size in {@code subscribers}; {@code each}
   * sees every measured round as it ends.
   */
  public static void sweep(
      String connect,
      ZkAuth auth,
      InetSocketAddress server,
      Setup setup,
      List<Integer> subscribers,
      int warmup,
      Consumer<Result> each)
      throws Exception {
    for (int w = 1; w <= warmup; w++) {
      System.err.printf("warm-up round %d of %d%n", w, warmup);
      run(connect, auth, server, withSize(setup, subscribers.get(0), 0));
    }
    for (int n : subscribers) {
      each.accept(run(connect, auth, server, withSize(setup, n, setup.rate())));
    }
  }

  private static Setup withSize(Setup s, int subscribers, double rate) {
    return new Setup(
        subscribers,
        s.edges(),
        s.topics(),
        s.interest(),
        s.routingBrokers(),
        rate,
        s.freshTopics(),
        s.model());
  }

  /** The topics edge {@code e} subscribes to: {@code interest} of them, the same every run. */
  static int[] interestOf(int e, Setup s) {
    List<Integer> all = new ArrayList<>();
    for (int t = 0; t < s.topics(); t++) {
      all.add(t);
    }
    java.util.Collections.shuffle(all, new Random(1000L + e));
    return all.subList(0, s.interest()).stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * One round on the ZooKeeper at {@code connect}, every client with {@code auth} (null: none, for
   * a server run by someone else without ACLs).
   */
  public static Result run(String connect, ZkAuth auth, InetSocketAddress server, Setup s)
      throws Exception {
    String ns = "joinbench-" + s.subscribers() + "-" + System.nanoTime();
    List<AutoCloseable> open = new ArrayList<>();
    List<CuratorFramework> clients = new ArrayList<>();
    try {
      List<RoutingBroker> brokers = new ArrayList<>();
      for (int r = 0; r < s.routingBrokers(); r++) {
        RoutingBroker rb =
            RoutingBroker.start(
                "rb" + r,
                client(connect, auth, ns),
                new InetSocketAddress("127.0.0.1", 0),
                AssignmentStrategy.TOPIC_COUNT,
                DatagramAuth.random());
        brokers.add(rb);
        open.add(rb);
      }
      int[][] interest = new int[s.edges()][];
      List<OverlayTree> trees = new ArrayList<>();
      for (int e = 0; e < s.edges(); e++) {
        CuratorFramework c = client(connect, auth, ns);
        clients.add(c);
        open.add(c);
        OverlayTree tree = new OverlayTree(c, "bench-e" + e, false);
        open.add(tree);
        interest[e] = interestOf(e, s);
        Set<String> topics = new HashSet<>();
        for (int t : interest[e]) {
          topics.add(topicName(t));
        }
        tree.retainTopics(() -> topics); // as an edge does in the sync that creates its entries
        trees.add(tree);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!brokers.isEmpty() && brokers.stream().noneMatch(RoutingBroker::isLeader)) {
        if (System.nanoTime() > deadline) {
          throw new IOException("no routing broker took the lead in 60 s");
        }
        Thread.sleep(10); // a benchmark, not a test: waiting for the election is its setup
      }
      Set<String> all = new HashSet<>();
      for (int[] mine : interest) {
        for (int t : mine) {
          all.add(topicName(t));
        }
      }
      if (!s.freshTopics()) {
        CuratorFramework publisher = client(connect, auth, ns);
        open.add(publisher);
        CountDownLatch created = new CountDownLatch(all.size());
        for (String t : all) {
          publisher
              .create()
              .creatingParentContainersIfNeeded()
              .withMode(CreateMode.EPHEMERAL)
              .inBackground((c, event) -> created.countDown())
              .forPath(
                  ZnodePaths.endpoint(t, ZnodePaths.Role.PUBLISHER, "publisher"),
                  entryData("publisher", 0));
        }
        if (!created.await(120, TimeUnit.SECONDS)) {
          throw new IOException("publisher entries not created in 120 s");
        }
        while (!brokers.isEmpty() && !allAssigned(brokers, all)) {
          if (System.nanoTime() > deadline) {
            throw new IOException("topics not assigned in 60 s");
          }
          Thread.sleep(10);
        }
        while (entriesSeen(brokers, ZnodePaths.Role.PUBLISHER)
                < (brokers.isEmpty() ? 0 : all.size())
            || trees.stream().anyMatch(t -> t.view().topics().size() < s.interest())) {
          if (System.nanoTime() > deadline) {
            throw new IOException(
                "caches not loaded in 60 s: the routing brokers hold "
                    + entriesSeen(brokers, ZnodePaths.Role.PUBLISHER)
                    + " of "
                    + all.size()
                    + " publisher entries, edges hold "
                    + trees.stream().map(t -> t.view().topics().size()).toList()
                    + " topics");
          }
          Thread.sleep(10);
        }
      }
      if (s.model() == Model.EDGE) {
        registerEdges(clients, trees, brokers, deadline);
      }
      FourLetterWords.send(server, "srst"); // the server's latency summaries count this round only
      long before = znodesUnder(clients.get(0), ns);
      Joins joins = new Joins(s, clients, trees, open);
      Set<String> used = new HashSet<>();
      long start = System.nanoTime();
      for (int i = 0; i < s.subscribers(); i++) {
        int edge = i % s.edges();
        int[] mine = interest[edge];
        String topic = topicName(mine[(i / s.edges()) % mine.length]);
        used.add(topic);
        if (s.rate() > 0) {
          long due = start + (long) (i * 1e9 / s.rate());
          long wait = due - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
        }
        joins.join(i, edge, topic);
      }
      joins.await(300);
      double seconds = (System.nanoTime() - start) / 1e9;
      double assigned = -1;
      double visible = -1;
      if (!brokers.isEmpty()) {
        while (!allAssigned(brokers, used)) {
          if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(300)) {
            throw new IOException("topics not all assigned in 300 s");
          }
          Thread.sleep(2);
        }
        assigned = (System.nanoTime() - start) / 1e9;
        while (entriesSeen(brokers, ZnodePaths.Role.SUBSCRIBER) < joins.entries()) {
          if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(300)) {
            throw new IOException("entries not all seen by the routing brokers in 300 s");
          }
          Thread.sleep(2);
        }
        visible = (System.nanoTime() - start) / 1e9;
      }
      Map<String, String> mntr = FourLetterWords.mntr(server);
      Latencies latency = Latencies.of(joins.latencies());
      Latencies requests = Latencies.of(joins.requestLatencies());
      return new Result(
          s,
          latency.percentileMillis(0.50, -1),
          latency.percentileMillis(0.99, -1),
          latency.percentileMillis(1.0, -1),
          requests.count(),
          requests.percentileMillis(0.50, -1),
          requests.percentileMillis(0.99, -1),
          joins.entries(),
          znodesUnder(clients.get(0), ns) - before,
          Long.parseLong(mntr.getOrDefault("zk_watch_count", "-1")),
          seconds,
          assigned,
          visible,
          Double.parseDouble(mntr.getOrDefault("zk_avg_latency", "-1")),
          Double.parseDouble(mntr.getOrDefault("zk_p50_updatelatency", "-1")),
          Double.parseDouble(mntr.getOrDefault("zk_p99_updatelatency", "-1")),
          Double.parseDouble(mntr.getOrDefault("zk_p99_readlatency", "-1")),
          Long.parseLong(mntr.getOrDefault("zk_cnt_readlatency", "-1")),
          Long.parseLong(mntr.getOrDefault("zk_cnt_updatelatency", "-1")));
    } finally {
      java.util.Collections.reverse(open);
      for (AutoCloseable c : open) {
        try {
          c.close();
        } catch (Exception e) {
          // keep closing the rest
        }
      }
      removeNamespace(connect, auth, ns);
    }
  }

  /** The znodes below the round's namespace (its own, not other rounds' or their reaping). */
  private static long znodesUnder(CuratorFramework c, String ns) throws Exception {
    return c.getZookeeperClient().getZooKeeper().getAllChildrenNumber("/" + ns);
  }

  /**
   * Deletes the round's containers now, rather than have the server reap them during the next round
   * (its sessions are closed, so its ephemeral entries went with them).
   */
  private static void removeNamespace(String connect, ZkAuth auth, String ns) {
    try (CuratorFramework c = client(connect, auth, null)) {
      c.delete().deletingChildrenIfNeeded().forPath("/" + ns);
    } catch (Exception e) {
      // the reaper takes what is left
    }
  }

  /**
   * The joins of one round in its load model: each join's latency from its call to its entry
   * committed (a join whose entry is committed already costs nothing), and every request's.
   */
  private static final class Joins {
    private final Setup setup;
    private final List<CuratorFramework> clients;
    private final List<EntryWriter> writers = new ArrayList<>();
    private final long[] latency;
    private final long[] joined;
    private final CountDownLatch done;
    private final AtomicInteger failed = new AtomicInteger();
    private final java.util.concurrent.ConcurrentLinkedQueue<Long> requests =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Map<String, List<Integer>> waiting = new HashMap<>(); // path -> joins (guarded)
    private final Set<String> paths = new HashSet<>(); // guarded by waiting

    /** {@code trees}: each edge's, whose topic caches tell its writer which containers exist. */
    Joins(
        Setup s,
        List<CuratorFramework> clients,
        List<OverlayTree> trees,
        List<AutoCloseable> open) {
      this.setup = s;
      this.clients = clients;
      this.latency = new long[s.subscribers()];
      this.joined = new long[s.subscribers()];
      this.done = new CountDownLatch(s.subscribers());
      if (s.model() != Model.SUBSCRIBER) {
        for (int e = 0; e < clients.size(); e++) {
          EntryWriter w =
              EntryWriter.start(
                  clients.get(e),
                  "bench-e" + e,
                  new EntryWriter.Listener() {
                    @Override
                    public void committed(String path) {
                      Joins.this.committed(path);
                    }

                    @Override
                    public void request(String kind, int ops, long nanos, int resultCode) {
                      requests.add(nanos);
                    }
                  },
                  EntryWriter.MAX_OPS,
                  trees.get(e)::holds);
          writers.add(w);
          open.add(w);
        }
      }
    }

    void join(int i, int edge, String topic) throws Exception {
      String path =
          ZnodePaths.endpoint(
              topic,
              ZnodePaths.Role.SUBSCRIBER,
              setup.model() == Model.EDGE ? "edge" + edge : "edge" + edge + "-" + i);
      byte[] data = entryData("site" + edge, 1 + edge);
      joined[i] = System.nanoTime();
      if (setup.model() == Model.SUBSCRIBER) {
        synchronized (waiting) {
          paths.add(path);
        }
        clients
            .get(edge)
            .create()
            .creatingParentContainersIfNeeded()
            .withMode(CreateMode.EPHEMERAL)
            .inBackground(
                (client, event) -> {
                  long nanos = System.nanoTime() - joined[i];
                  requests.add(nanos);
                  latency[i] = nanos;
                  if (event.getResultCode() != 0) {
                    failed.incrementAndGet();
                  }
                  done.countDown();
                })
            .forPath(path, data);
        return;
      }
      EntryWriter w = writers.get(edge);
      synchronized (waiting) {
        paths.add(path);
        if (w.isCommitted(path)) {
          latency[i] = System.nanoTime() - joined[i]; // the edge's entry is there already
          done.countDown();
          return;
        }
        waiting.computeIfAbsent(path, p -> new ArrayList<>()).add(i);
      }
      w.put(path, data);
    }

    private void committed(String path) {
      long now = System.nanoTime();
      List<Integer> mine;
      synchronized (waiting) {
        mine = waiting.remove(path);
      }
      if (mine != null) {
        for (int i : mine) {
          latency[i] = now - joined[i];
          done.countDown();
        }
      }
    }

    void await(int seconds) throws IOException, InterruptedException {
      if (!done.await(seconds, TimeUnit.SECONDS)) {
        throw new IOException("joins did not complete in " + seconds + " s");
      }
      if (failed.get() > 0) {
        throw new IOException(failed.get() + " joins failed");
      }
    }

    long entries() {
      synchronized (waiting) {
        return paths.size();
      }
    }

    long[] latencies() {
      return latency.clone();
    }

    long[] requestLatencies() {
      return requests.stream().mapToLong(Long::longValue).toArray();
    }
  }

  /** What an edge writes into its entries: its site and datagram address. */
  /**
   * As each edge broker does before its first entry: its directory record {@code /edges/<edge>},
   * known to every cache before the joins, so that they need not read the entries' data.
   */
  private static void registerEdges(
      List<CuratorFramework> clients,
      List<OverlayTree> trees,
      List<RoutingBroker> brokers,
      long deadline)
      throws Exception {
    Set<String> names = new HashSet<>();
    for (int e = 0; e < clients.size(); e++) {
      names.add("edge" + e);
      clients
          .get(e)
          .create()
          .withMode(CreateMode.EPHEMERAL)
          .forPath(ZnodePaths.edge("edge" + e), entryData("site" + e, 1 + e));
    }
    while (trees.stream().anyMatch(t -> !t.knownEdges().containsAll(names))
        || brokers.stream().anyMatch(b -> !b.knownEdges().containsAll(names))) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the edges' directory records not seen in 60 s");
      }
      Thread.sleep(10);
    }
  }

  private static byte[] entryData(String site, int port) {
    return ZnodeData.endpoint(new Endpoint(site, new InetSocketAddress("127.0.0.1", port)));
  }

  private static String topicName(int t) {
    return "t/" + t;
  }

  /** True once the leader's index shows every used topic assigned. */
  private static boolean allAssigned(List<RoutingBroker> brokers, Set<String> topics) {
    for (RoutingBroker rb : brokers) {
      if (rb.isLeader()) {
        OverlayView index = rb.index();
        return topics.stream()
            .allMatch(t -> index.topic(t).flatMap(TopicState::assignment).isPresent());
      }
    }
    return false;
  }

  /** Entries of {@code role} the routing brokers' topic caches hold, over their assigned topics. */
  private static long entriesSeen(List<RoutingBroker> brokers, ZnodePaths.Role role) {
    long n = 0;
    for (RoutingBroker rb : brokers) {
      OverlayView v = rb.view();
      for (var e : v.topics().entrySet()) {
        boolean mine =
            e.getValue().assignment().filter(a -> a.broker().equals(rb.name())).isPresent();
        if (mine) {
          n +=
              role == ZnodePaths.Role.PUBLISHER
                  ? e.getValue().publishers().size()
                  : e.getValue().subscribers().size();
        }
      }
    }
    return n;
  }

  private static CuratorFramework client(String connect, ZkAuth auth, String namespace)
      throws InterruptedException, IOException {
    CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder();
    if (auth != null) {
      auth.applyTo(b);
    }
    CuratorFramework c =
        b.connectString(connect)
            .namespace(namespace)
            .sessionTimeoutMs(30_000)
            .retryPolicy(new ExponentialBackoffRetry(50, 5))
            .build();
    c.start();
    if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
      c.close();
      throw new IOException("cannot reach ZooKeeper at " + connect);
    }
    return c;
  }
}
