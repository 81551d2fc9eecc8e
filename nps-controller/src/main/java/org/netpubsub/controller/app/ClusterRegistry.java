package org.netpubsub.controller.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Topology;

/**
 * Replicates what an operator or the edge coordinator tells one controller process of a cluster —
 * hosts registered by hand ({@code POST /v1/hosts}) and multicast groups ({@code /v1/groups}) — to
 * every process, through ZooKeeper (under the control plane's root):
 *
 * <pre>
 * ROOT/hosts/ADDRESS        a host registered by hand, registered by every process
 * ROOT/groups/NAME          a group as put (NAME URL-encoded)
 * ROOT/groups-writer        LeaderLatch: the one process that writes the multicast state
 * ROOT/groups-epoch         how many times the writer changed (each numbers entry SIDs anew)
 * ROOT/placements           the writer's summary (segments, avoided links, its member id) ...
 * ROOT/placements/NAME      ... and each group as it placed it, with the change it reflects
 * </pre>
 *
 * <p>Hosts: the accepting process registers the host first (so its answer says whether the switch
 * and port fit), then writes it; every process follows {@code hosts/} with a {@link CuratorCache}
 * and registers what appears or changes (hosts are plain state: all end with the last write). A
 * host whose switch or edge port a process does not know yet waits for a topology change that
 * allows it. Hosts learned from neighbour discovery stay local: every process learns them itself.
 *
 * <p>Groups: segment indices and entry SIDs are hashes of what they stand for, but two processes
 * applying changes at different moments (or probing a hash collision in another order) would still
 * want different states and their reconciles would fight. So one process, the writer, holds the
 * groups and writes them on the switches; the others want none and their reconciles leave multicast
 * flows and groups alone ({@code writesMulticast}, read by the reconcile scope). Any process takes
 * a group change: it writes the spec to ZooKeeper and answers with the placement the writer
 * publishes for that change. A new writer (the old one died or left) replays every group, numbering
 * entry SIDs from a range of its own (the epoch's), so an address a source may still use from
 * before never reaches another group's tree; sources read their placement again.
 */
public final class ClusterRegistry implements FlowService.Listener, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ClusterRegistry.class.getName());

  /** Entry SID numbers per writer epoch: 1024 epochs fit the 2^30 numbers, then they wrap. */
  private static final int EPOCH_SPAN = GroupForwarding.ENTRY_SID_SPAN;

  private final CuratorFramework zk;
  private final String hostsPath;
  private final String groupsPath;
  private final String placementsPath;
  private final String epochPath;
  private final NetworkController controller;
  private final MulticastGroups groups;
  private final AtomicBoolean writesMulticast;
  private final Map<Ipv6Address, Host> waiting = new ConcurrentHashMap<>(); // for their switch
  private final CuratorCache hostCache;
  private final CuratorCache groupCache;
  private final String member;
  private final LeaderLatch writer;
  // group changes and leadership, one at a time and in order
  private final ExecutorService groupThread =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().daemon().name("cluster-groups").factory());
  private volatile boolean writing; // groupThread writes it
  private final AtomicBoolean closed = new AtomicBoolean();

  private ClusterRegistry(
      CuratorFramework zk,
      String root,
      String member,
      NetworkController controller,
      MulticastGroups groups,
      AtomicBoolean writesMulticast) {
    this.zk = zk;
    this.hostsPath = root + "/hosts";
    this.groupsPath = root + "/groups";
    this.placementsPath = root + "/placements";
    this.epochPath = root + "/groups-epoch";
    this.controller = controller;
    this.groups = groups;
    this.writesMulticast = writesMulticast;
    this.hostCache = CuratorCache.build(zk, hostsPath);
    this.groupCache = CuratorCache.build(zk, groupsPath);
    this.member = member;
    this.writer = new LeaderLatch(zk, root + "/groups-writer", member);
  }

  /**
   * Joins the cluster's registry under {@code root} (the control plane's root) as {@code member}:
   * loads every host recorded there and follows the changes; this process writes the multicast
   * state while it holds the writer latch ({@code writesMulticast} says so to the reconciles).
   */
  public static ClusterRegistry start(
      CuratorFramework zk,
      String root,
      String member,
      NetworkController controller,
      MulticastGroups groups,
      AtomicBoolean writesMulticast)
      throws Exception {
    ClusterRegistry r = new ClusterRegistry(zk, root, member, controller, groups, writesMulticast);
    for (String path : List.of(r.hostsPath, r.groupsPath, r.placementsPath)) {
      try {
        zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path);
      } catch (KeeperException.NodeExistsException e) {
        // there already
      }
    }
    writesMulticast.set(false);
    groups.stopWriting().join(); // until elected
    controller.listen(r).join();
    r.hostCache.listenable().addListener(r.listener(r.hostsPath, r::hostChanged, d -> {}));
    r.groupCache
        .listenable()
        .addListener(
            r.listener(
                r.groupsPath,
                d -> r.groupThread.execute(() -> r.groupChanged(d)),
                d -> r.groupThread.execute(() -> r.groupGone(d))));
    r.writer.addListener(
        new LeaderLatchListener() {
          @Override
          public void isLeader() {
            r.startWriting();
          }

          @Override
          public void notLeader() {
            r.stopWriting();
          }
        },
        r.groupThread);
    r.hostCache.start();
    r.groupCache.start();
    r.writer.start();
    return r;
  }

  /** Records a host this process registered, so that every other process registers it too. */
  public void hostRegistered(Host h) throws Exception {
    zk.create()
        .orSetData()
        .forPath(hostsPath + "/" + RegistryCodec.hostNode(h.address()), RegistryCodec.host(h));
  }

  /**
   * Puts a group in the cluster: completes with its placement ({@code PUT /v1/groups/NAME}'s
   * answer) once the writer applied this change and every switch took it, or with {@link
   * MulticastGroups.TooManyGroups} for a new group when the cluster records the cap already (the
   * same cap and reason as without a cluster; changing a recorded group is always allowed).
   */
  public CompletableFuture<JsonNode> putGroup(GroupSpec spec) throws Exception {
    String node = RegistryCodec.groupNode(spec.name());
    OptionalLong written = OptionalLong.empty();
    while (written.isEmpty()) {
      Stat parent = new Stat();
      List<String> recorded = zk.getChildren().storingStatIn(parent).forPath(groupsPath);
      if (recorded.contains(node)) {
        written = change(node, RegistryCodec.group(spec));
      } else if (recorded.size() >= groups.maxGroups()) {
        return CompletableFuture.failedFuture(MulticastGroups.tooMany(groups.maxGroups()));
      } else {
        written = create(node, RegistryCodec.group(spec), parent.getVersion());
      }
    }
    long zxid = written.getAsLong();
    CompletableFuture<JsonNode> placed = new CompletableFuture<>();
    awaitPlacement(
        node,
        data -> data != null && data.path("zxid").asLong() >= zxid,
        data -> placed.complete(data.get("placement")),
        placed);
    return placed;
  }

  /** A recorded group changed: the change's zxid; empty if it was removed meanwhile. */
  private OptionalLong change(String node, byte[] data) throws Exception {
    try {
      return OptionalLong.of(zk.setData().forPath(groupsPath + "/" + node, data).getMzxid());
    } catch (KeeperException.NoNodeException e) {
      return OptionalLong.empty(); // look again: now a new group, under the cap
    }
  }

  /**
   * A new group, recorded only if no group was created since the count was read ({@code
   * parentVersion}): the creation and a write of the parent's data at that version are one
   * ZooKeeper transaction, so two processes creating groups at the cap at once cannot both pass it
   * (a child's creation changes no version a check could test). The creation's zxid; empty if it
   * must look again.
   */
  private OptionalLong create(String node, byte[] data, int parentVersion) throws Exception {
    try {
      List<CuratorTransactionResult> r =
          zk.transaction()
              .forOperations(
                  zk.transactionOp()
                      .setData()
                      .withVersion(parentVersion)
                      .forPath(groupsPath, new byte[0]),
                  zk.transactionOp().create().forPath(groupsPath + "/" + node, data));
      return OptionalLong.of(r.get(0).getResultStat().getMzxid()); // one transaction, one zxid
    } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException e) {
      return OptionalLong.empty(); // another group was created meanwhile, maybe this one
    }
  }

  /**
   * Removes a group from the cluster: completes with true once the writer removed it, with false if
   * the cluster did not record it.
   */
  public CompletableFuture<Boolean> removeGroup(String name) throws Exception {
    String node = RegistryCodec.groupNode(name);
    try {
      zk.delete().forPath(groupsPath + "/" + node);
    } catch (KeeperException.NoNodeException e) {
      return CompletableFuture.completedFuture(false);
    }
    CompletableFuture<Boolean> removed = new CompletableFuture<>();
    awaitPlacement(node, data -> data == null, data -> removed.complete(true), removed);
    return removed;
  }

  /** A group as the writer placed it ({@code GET /v1/groups/NAME}); empty if there is none. */
  public Optional<JsonNode> placement(String name) throws Exception {
    return Optional.ofNullable(read(placementsPath + "/" + RegistryCodec.groupNode(name)))
        .map(d -> d.get("placement"));
  }

  /** Every group as the writer placed it, with its summary ({@code GET /v1/groups}). */
  public JsonNode placements() throws Exception {
    JsonNode summary = read(placementsPath);
    ObjectNode out = GroupJson.JSON.createObjectNode();
    out.put("segments", summary == null ? 0 : summary.path("segments").asInt());
    ArrayNode all = out.putArray("groups");
    List<String> nodes = new ArrayList<>(zk.getChildren().forPath(placementsPath));
    nodes.sort(Comparator.comparing(RegistryCodec::groupName));
    for (String node : nodes) {
      JsonNode d = read(placementsPath + "/" + node);
      if (d != null) {
        all.add(d.get("placement"));
      }
    }
    out.set(
        "avoided_links",
        summary == null ? GroupJson.JSON.createArrayNode() : summary.path("avoided_links"));
    if (summary != null && summary.hasNonNull("writer")) {
      out.put("writer", summary.get("writer").asText()); // the member that writes them
    }
    return out;
  }

  /** True while this process holds a ZooKeeper session (readiness, the session-state gauge). */
  public boolean zooKeeperConnected() {
    return zk.getZookeeperClient().isConnected();
  }

  /** True while this process writes the cluster's multicast state. */
  public boolean writesMulticast() {
    return writing;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      writer.close(); // another process takes the multicast state over at once
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "leaving the writer latch", e);
    }
    hostCache.close();
    groupCache.close();
    groupThread.shutdown();
  }

  // ---- hosts ----

  private void hostChanged(ChildData d) {
    Host h;
    try {
      h = RegistryCodec.host(d.getData());
    } catch (IllegalArgumentException e) {
      LOG.log(System.Logger.Level.ERROR, "ignored " + d.getPath() + ": " + e.getMessage());
      return;
    }
    waiting.remove(h.address());
    register(h);
  }

  /**
   * Registers the host here; if its switch or port is not known yet, waits for a topology change.
   */
  private void register(Host h) {
    controller
        .registerHost(h)
        .whenComplete(
            (ok, err) -> {
              if (err != null) {
                waiting.put(h.address(), h);
              }
            });
  }

  // ---- groups: on groupThread ----

  /**
   * Elected: every group (in the order it was put), numbered from this epoch's entry SIDs, onto the
   * switches; then the placements for every process to answer with.
   */
  private void startWriting() {
    try {
      int epoch = nextEpoch();
      List<ChildData> recorded = recordedGroups();
      List<GroupSpec> specs = new ArrayList<>();
      for (ChildData d : recorded) {
        specs.add(RegistryCodec.group(d.getData()));
      }
      writesMulticast.set(true); // the reconciles manage multicast from now on
      groups.startWriting(specs, (epoch % 1024) * EPOCH_SPAN).join();
      writing = true;
      List<String> current = new ArrayList<>();
      for (ChildData d : recorded) {
        String node = d.getPath().substring(groupsPath.length() + 1);
        current.add(node);
        publish(node, RegistryCodec.groupName(node), d.getStat().getMzxid());
      }
      for (String node : zk.getChildren().forPath(placementsPath)) {
        if (!current.contains(node)) {
          zk.delete().quietly().forPath(placementsPath + "/" + node); // removed meanwhile
        }
      }
      publishSummary();
      LOG.log(System.Logger.Level.INFO, "writing the multicast state, epoch " + epoch);
    } catch (Exception e) {
      LOG.log(System.Logger.Level.ERROR, "taking the multicast state over failed", e);
    }
  }

  private void stopWriting() {
    writing = false;
    writesMulticast.set(false);
    groups.stopWriting().join();
  }

  private int nextEpoch() throws Exception {
    while (true) {
      Stat stat = new Stat();
      try {
        byte[] data = zk.getData().storingStatIn(stat).forPath(epochPath);
        int next = Integer.parseInt(new String(data, StandardCharsets.UTF_8)) + 1;
        zk.setData()
            .withVersion(stat.getVersion())
            .forPath(epochPath, Integer.toString(next).getBytes(StandardCharsets.UTF_8));
        return next;
      } catch (KeeperException.NoNodeException e) {
        try {
          zk.create().forPath(epochPath, "0".getBytes(StandardCharsets.UTF_8));
          return 0;
        } catch (KeeperException.NodeExistsException raced) {
          // look again
        }
      } catch (KeeperException.BadVersionException e) {
        // look again
      }
    }
  }

  /** The recorded groups, in the order they were first put. */
  private List<ChildData> recordedGroups() throws Exception {
    List<ChildData> out = new ArrayList<>();
    for (String node : zk.getChildren().forPath(groupsPath)) {
      Stat stat = new Stat();
      try {
        byte[] data = zk.getData().storingStatIn(stat).forPath(groupsPath + "/" + node);
        out.add(new ChildData(groupsPath + "/" + node, stat, data));
      } catch (KeeperException.NoNodeException e) {
        // removed meanwhile
      }
    }
    out.sort(Comparator.comparingLong(d -> d.getStat().getCzxid()));
    return out;
  }

  private void groupChanged(ChildData d) {
    if (!writing) {
      return; // the writer applies it; a new writer replays it
    }
    String node = d.getPath().substring(groupsPath.length() + 1);
    try {
      GroupSpec spec = RegistryCodec.group(d.getData());
      Optional<GroupForwarding.Placement> now = groups.placement(spec.name()).join();
      if (now.isEmpty() || !now.get().spec().equals(spec)) {
        groups.put(spec).join(); // the same spec again (a replayed change) is not embedded anew
      }
      publish(node, spec.name(), d.getStat().getMzxid());
      publishSummary();
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "putting group " + d.getPath(), e);
    }
  }

  private void groupGone(ChildData d) {
    if (!writing) {
      return;
    }
    String node = d.getPath().substring(groupsPath.length() + 1);
    try {
      groups.remove(RegistryCodec.groupName(node)).join();
      zk.delete().quietly().forPath(placementsPath + "/" + node);
      publishSummary();
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "removing group " + d.getPath(), e);
    }
  }

  /** The group's placement as this writer made it, reflecting the change at {@code zxid}. */
  private void publish(String node, String name, long zxid) throws Exception {
    var placed = groups.placement(name).join();
    if (placed.isEmpty()) {
      return;
    }
    ObjectNode d = GroupJson.JSON.createObjectNode().put("zxid", zxid);
    d.set("placement", GroupJson.placement(placed.get()));
    zk.create().orSetData().forPath(placementsPath + "/" + node, bytes(d));
  }

  private void publishSummary() throws Exception {
    ObjectNode s = GroupJson.snapshot(groups.snapshot().join());
    s.remove("groups");
    s.put("writer", member);
    zk.setData().forPath(placementsPath, bytes(s));
  }

  /**
   * Calls {@code then} with the placement node's data (null: absent) once {@code until} holds;
   * fails {@code waiting} on a ZooKeeper error.
   */
  private void awaitPlacement(
      String node,
      Predicate<JsonNode> until,
      Consumer<JsonNode> then,
      CompletableFuture<?> waiting) {
    String path = placementsPath + "/" + node;
    Watcher w = event -> awaitPlacement(node, until, then, waiting);
    try {
      JsonNode data;
      if (zk.checkExists().usingWatcher(w).forPath(path) == null) {
        data = null;
      } else {
        data = read(path);
      }
      if (!waiting.isDone() && until.test(data)) {
        then.accept(data);
      }
    } catch (Exception e) {
      waiting.completeExceptionally(e);
    }
  }

  private JsonNode read(String path) throws Exception {
    try {
      byte[] data = zk.getData().forPath(path);
      return data == null || data.length == 0 ? null : GroupJson.JSON.readTree(data);
    } catch (KeeperException.NoNodeException e) {
      return null;
    }
  }

  private static byte[] bytes(JsonNode n) {
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  // ---- applying the cluster's changes here ----

  /**
   * Hands {@code parent}'s children (not the parent itself) to {@code changed} and {@code gone}.
   */
  private CuratorCacheListener listener(
      String parent, Consumer<ChildData> changed, Consumer<ChildData> gone) {
    Predicate<ChildData> child =
        d ->
            d.getPath().startsWith(parent + "/")
                && d.getPath().indexOf('/', parent.length() + 1) < 0;
    return CuratorCacheListener.builder()
        .forCreatesAndChanges(
            (before, now) -> {
              if (child.test(now)) {
                changed.accept(now);
              }
            })
        .forDeletes(
            d -> {
              if (child.test(d)) {
                gone.accept(d);
              }
            })
        .build();
  }

  // ---- FlowService.Listener: on the loop ----

  /** Hosts waiting for their switch are registered once the topology has it. */
  @Override
  public void topologyChanged(Topology next) {
    waiting.forEach(
        (address, h) -> {
          if (next.hasSwitch(h.attachment().dpid())
              && next.linkAt(h.attachment()).isEmpty()
              && !next.host(address).map(h::equals).orElse(false)
              && waiting.remove(address, h)) {
            register(h);
          }
        });
  }
}
