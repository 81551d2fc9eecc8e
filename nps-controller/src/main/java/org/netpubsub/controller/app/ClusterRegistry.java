package org.netpubsub.controller.app;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.Ipv6Address;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Topology;

/**
 * Replicates what an operator or the edge coordinator tells one controller process of a cluster —
 * hosts registered by hand ({@code POST /v1/hosts}) and multicast groups ({@code /v1/groups}) — to
 * every process, through ZooKeeper: {@code ROOT/hosts/ADDRESS} and {@code ROOT/groups/NAME},
 * persistent znodes written by the process that accepted the request once it validated it, watched
 * by every process with a {@link CuratorCache} and applied to its own controller and groups. A
 * process that joins later loads them all. A host is registered at the accepting process first (so
 * its answer says whether the switch and port fit); hosts are plain state, so every process ends
 * with the last write. A group change is applied at every process, the accepting one included, in
 * ZooKeeper's order, and answered once applied there: the trees' segments and entry SIDs depend on
 * the order of changes, and this way processes that heard the same changes number them alike.
 *
 * <p>A host whose switch (or edge port) this process does not know yet is kept and registered at
 * the first topology change that makes it possible. Hosts learned from neighbour discovery stay
 * local: every process learns them itself.
 */
public final class ClusterRegistry implements FlowContributor, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ClusterRegistry.class.getName());

  private final CuratorFramework zk;
  private final String hostsPath;
  private final String groupsPath;
  private final NetworkController controller;
  private final MulticastGroups groups;
  private final Map<Ipv6Address, Host> waiting = new ConcurrentHashMap<>(); // for their switch
  private final Set<Awaited> awaited = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> applied = new ConcurrentHashMap<>(); // group node → last zxid
  private final CuratorCache hostCache;
  private final CuratorCache groupCache;

  private ClusterRegistry(
      CuratorFramework zk, String root, NetworkController controller, MulticastGroups groups) {
    this.zk = zk;
    this.hostsPath = root + "/hosts";
    this.groupsPath = root + "/groups";
    this.controller = controller;
    this.groups = groups;
    this.hostCache = CuratorCache.build(zk, hostsPath);
    this.groupCache = CuratorCache.build(zk, groupsPath);
  }

  /**
   * Joins the cluster's registry under {@code root} (the control plane's root): loads every host
   * and group recorded there and follows their changes.
   */
  public static ClusterRegistry start(
      CuratorFramework zk, String root, NetworkController controller, MulticastGroups groups)
      throws Exception {
    ClusterRegistry r = new ClusterRegistry(zk, root, controller, groups);
    for (String path : List.of(r.hostsPath, r.groupsPath)) {
      try {
        zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path);
      } catch (KeeperException.NodeExistsException e) {
        // there already
      }
    }
    controller.addContributor(r).join();
    r.hostCache.listenable().addListener(r.listener(r.hostsPath, r::hostChanged, d -> {}));
    r.groupCache.listenable().addListener(r.listener(r.groupsPath, r::groupChanged, r::groupGone));
    r.hostCache.start();
    r.groupCache.start();
    return r;
  }

  /** Records a host this process registered, so that every other process registers it too. */
  public void hostRegistered(Host h) throws Exception {
    zk.create()
        .orSetData()
        .forPath(hostsPath + "/" + RegistryCodec.hostNode(h.address()), RegistryCodec.host(h));
  }

  /**
   * Puts a group at every process, this one included: completes once this process applied it. Every
   * process applies group changes in ZooKeeper's order, the accepting one too, so that they embed
   * the same trees with the same segments and entry SIDs.
   */
  public CompletableFuture<Void> putGroup(GroupSpec spec) throws Exception {
    String node = RegistryCodec.groupNode(spec.name());
    Stat stat = new Stat();
    zk.create()
        .orSetData()
        .storingStatIn(stat)
        .forPath(groupsPath + "/" + node, RegistryCodec.group(spec));
    return appliedAt(node, stat.getMzxid());
  }

  /**
   * Removes a group from every process: completes with true once this process removed it, with
   * false if the cluster did not record it.
   */
  public CompletableFuture<Boolean> removeGroup(String name) throws Exception {
    String node = RegistryCodec.groupNode(name);
    CompletableFuture<Void> removed = appliedAt(node, Long.MAX_VALUE); // only a delete settles it
    try {
      zk.delete().forPath(groupsPath + "/" + node);
      return removed.thenApply(v -> true);
    } catch (KeeperException.NoNodeException e) {
      awaited.removeIf(a -> a.done() == removed);
      return CompletableFuture.completedFuture(false);
    }
  }

  /** A change of this process's to one group node, waiting to be applied here. */
  private record Awaited(String node, long zxid, CompletableFuture<Void> done) {}

  private CompletableFuture<Void> appliedAt(String node, long zxid) {
    Awaited a = new Awaited(node, zxid, new CompletableFuture<>());
    awaited.add(a);
    Long done = applied.get(node);
    if (done != null && done >= zxid) {
      settle(node, done);
    }
    return a.done();
  }

  /** The group node's change at {@code zxid} is applied here (a delete settles every waiter). */
  private void settle(String node, long zxid) {
    awaited.removeIf(
        a -> {
          boolean settled = a.node().equals(node) && a.zxid() <= zxid;
          if (settled) {
            a.done().complete(null);
          }
          return settled;
        });
  }

  @Override
  public void close() {
    hostCache.close();
    groupCache.close();
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

  private void groupChanged(ChildData d) {
    GroupSpec spec;
    try {
      spec = RegistryCodec.group(d.getData());
    } catch (IllegalArgumentException e) {
      LOG.log(System.Logger.Level.ERROR, "ignored " + d.getPath() + ": " + e.getMessage());
      return;
    }
    String node = d.getPath().substring(groupsPath.length() + 1);
    long zxid = d.getStat().getMzxid();
    groups
        .placement(spec.name())
        .thenCompose(
            p ->
                p.isPresent() && p.get().spec().equals(spec)
                    ? CompletableFuture.completedFuture(null)
                    : groups.put(spec)) // the same spec again is not embedded anew
        .whenComplete(
            (ok, err) -> {
              if (err != null) {
                LOG.log(System.Logger.Level.WARNING, "putting group " + spec.name(), err);
              }
              applied.merge(node, zxid, Math::max);
              settle(node, zxid);
            });
  }

  private void groupGone(ChildData d) {
    String node = d.getPath().substring(groupsPath.length() + 1);
    String name = RegistryCodec.groupName(node);
    groups
        .remove(name)
        .whenComplete(
            (ok, err) -> {
              if (err != null) {
                LOG.log(System.Logger.Level.WARNING, "removing group " + name, err);
              }
              applied.remove(node);
              settle(node, Long.MAX_VALUE);
            });
  }

  // ---- FlowContributor: on the loop ----

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

  @Override
  public List<FlowEntry> flows(long dpid) {
    return List.of(); // contributes no flows: it only feeds the controller and the groups app
  }
}
