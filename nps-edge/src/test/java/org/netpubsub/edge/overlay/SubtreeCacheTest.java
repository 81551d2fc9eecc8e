package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.edge.overlay.OverlayFixture.poll;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SubtreeCache} against a real ZooKeeper: it holds exactly what the tree holds (its naive
 * twin: reading the tree directly), also after an outage in which the tree changed, and a created
 * endpoint entry costs it one read (Curator's CuratorCache takes two); and an edge's tree tells its
 * entry writer which containers its topic caches hold.
 */
class SubtreeCacheTest {
  static final Duration T = Duration.ofSeconds(20);
  static final String ROOT = "/topics/t";

  @TempDir Path dir;
  EmbeddedZooKeeper zk;
  TcpProxy proxy;
  CuratorFramework writer;
  CuratorFramework reader;
  final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    zk = EmbeddedZooKeeper.start(new InetSocketAddress("127.0.0.1", 0), dir, 200);
    proxy = new TcpProxy(address());
    writer = Zk.connected(zk.connectString(), Duration.ofSeconds(10), T);
    reader = Zk.connected(proxy.connectString(), Duration.ofSeconds(10), T);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    reader.close();
    writer.close();
    proxy.close();
    zk.close();
  }

  private InetSocketAddress address() {
    String[] hostPort = zk.connectString().split(":");
    return new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
  }

  private SubtreeCache cache(String root) {
    return cache(root, (path, depth) -> true);
  }

  private SubtreeCache cache(
      String root, java.util.function.BiPredicate<String, Integer> dataWanted) {
    SubtreeCache c = new SubtreeCache(reader, root, 2, () -> {}, dataWanted);
    open.add(c);
    c.start();
    return c;
  }

  private static Map<String, String> contents(SubtreeCache c) {
    Map<String, String> out = new TreeMap<>();
    c.stream().forEach(d -> out.put(d.getPath(), text(d.getData())));
    return out;
  }

  /** The naive twin: the subtree read node by node. */
  private Map<String, String> tree(String path) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try {
      out.put(path, text(writer.getData().forPath(path)));
      for (String child : writer.getChildren().forPath(path)) {
        out.putAll(tree(path + "/" + child));
      }
    } catch (KeeperException.NoNodeException e) {
      // gone meanwhile, or never there
    }
    return out;
  }

  private static String text(byte[] data) {
    return data == null ? "" : new String(data, StandardCharsets.UTF_8);
  }

  /**
   * What the cache's client asked ZooKeeper, through the proxy. Not the server's {@code
   * zk_cnt_readlatency}: it counts pings too (any request without a transaction), and an idle
   * client pings after a third of its session timeout, so a slow run counted one in a test
   * expecting none.
   */
  private long reads() {
    return proxy.requests();
  }

  @Test
  void anEdgesTreeTellsItsWriterWhichContainersItsTopicCachesHold() throws Exception {
    OverlayTree tree = new OverlayTree(reader, "e", false);
    open.add(tree);
    tree.start(T.toMillis());
    tree.retainTopics(() -> java.util.Set.of("y/1"));
    writer
        .create()
        .creatingParentContainersIfNeeded()
        .withMode(CreateMode.EPHEMERAL)
        .forPath(ZnodePaths.endpoint("y/1", ZnodePaths.Role.SUBSCRIBER, "other"));
    writer.create().creatingParentContainersIfNeeded().forPath(ZnodePaths.topic("y/2") + "/sub");
    String sub = ZnodePaths.topic("y/1") + "/sub";
    // the topic node is cached when its data is read; the container, whose data is not, earlier
    poll(
        "the cached topic and its container",
        T,
        () -> tree.holds(sub) && tree.holds(ZnodePaths.topic("y/1")));
    assertThat(tree.holds(ZnodePaths.topic("y/1") + "/pub")).as("not there").isFalse();
    assertThat(tree.holds(ZnodePaths.topic("y/2") + "/sub")).as("not cached").isFalse();
    assertThat(tree.holds("/topics/%zz/sub")).as("not a topic").isFalse();
    assertThat(tree.holds(ZnodePaths.EDGES)).isFalse();
  }

  @Test
  void loadsTheTreeAndACreatedEntryCostsOneRead() throws Exception {
    writer.create().creatingParentsIfNeeded().forPath(ROOT + "/pub/e0", "a".getBytes());
    writer.create().forPath(ROOT + "/sub");
    SubtreeCache c = cache(ROOT);
    c.loaded().get(20, TimeUnit.SECONDS);
    assertThat(contents(c)).isEqualTo(tree(ROOT)); // complete once loaded

    int loaded = contents(c).size();
    long before = reads();
    int entries = 40;
    for (int i = 0; i < entries; i++) {
      writer.create().withMode(CreateMode.EPHEMERAL).forPath(ROOT + "/sub/e" + i, "x".getBytes());
    }
    poll("the cache shows every entry", T, () -> contents(c).size() == loaded + entries);
    assertThat(reads() - before).as("reads for %d new entries", entries).isEqualTo(entries);
    assertThat(contents(c)).isEqualTo(tree(ROOT));
  }

  @Test
  void aMissingRootLoadsEmptyAndIsFollowedWhenItAppears() throws Exception {
    SubtreeCache c = cache("/topics/later");
    c.loaded().get(20, TimeUnit.SECONDS);
    assertThat(contents(c)).isEmpty();
    writer.create().creatingParentsIfNeeded().forPath("/topics/later/sub/e1", "y".getBytes());
    poll("the new subtree", T, () -> contents(c).size() == 3);
    writer.delete().deletingChildrenIfNeeded().forPath("/topics/later");
    poll("gone again", T, () -> contents(c).isEmpty());
  }

  @Test
  void nodesWhoseDataIsDeclinedCostNoRead() throws Exception {
    writer.create().creatingParentsIfNeeded().forPath(ROOT + "/sub/e0", "a".getBytes());
    SubtreeCache c = cache(ROOT, (path, depth) -> notAnEntry(path));
    c.loaded().get(20, TimeUnit.SECONDS);
    assertThat(contents(c)).isEqualTo(blanked(tree(ROOT)));

    long before = reads();
    int entries = 40;
    for (int i = 1; i <= entries; i++) {
      writer.create().withMode(CreateMode.EPHEMERAL).forPath(ROOT + "/sub/e" + i, "x".getBytes());
    }
    poll("the cache shows every entry", T, () -> contents(c).size() == 3 + entries);
    assertThat(reads() - before).as("reads for %d new entries", entries).isZero();
    assertThat(contents(c)).isEqualTo(blanked(tree(ROOT)));
  }

  private static boolean notAnEntry(String path) {
    return path.split("/").length != 5; // /topics/t/sub/e
  }

  /** The twin's tree as a cache that declines the entries' data holds it. */
  private static Map<String, String> blanked(Map<String, String> tree) {
    Map<String, String> out = new TreeMap<>(tree);
    out.replaceAll((path, data) -> notAnEntry(path) ? data : "");
    return out;
  }

  /**
   * Random creates, data changes and deletes, some while the cache's connection is down (the
   * session survives; the events of that time are lost and the reload must find the changes).
   */
  @Test
  void holdsWhatTheTreeHoldsThroughOutages() throws Exception {
    holdsTheTreeThroughOutages(false);
  }

  @Test
  void holdsTheEntriesWithoutTheirDataThroughOutages() throws Exception {
    holdsTheTreeThroughOutages(true);
  }

  private void holdsTheTreeThroughOutages(boolean declineEntries) throws Exception {
    Random random = new Random(7);
    SubtreeCache c =
        cache(ROOT, declineEntries ? (path, depth) -> notAnEntry(path) : (path, depth) -> true);
    c.loaded().get(20, TimeUnit.SECONDS);
    for (int round = 0; round < 6; round++) {
      boolean outage = round % 2 == 1;
      if (outage) {
        proxy.pause();
        poll("the cache's client noticed", T, () -> !reader.getZookeeperClient().isConnected());
      }
      for (int op = 0; op < 30; op++) {
        change(random);
      }
      if (outage) {
        proxy.resume();
      }
      Map<String, String> want = declineEntries ? blanked(tree(ROOT)) : tree(ROOT);
      poll("round " + round + ": the cache equals the tree", T, () -> contents(c).equals(want));
    }
  }

  private void change(Random random) throws Exception {
    String kind = random.nextBoolean() ? "pub" : "sub";
    String entry = ROOT + "/" + kind + "/e" + random.nextInt(6);
    String data = "v" + random.nextInt(1000);
    try {
      switch (random.nextInt(5)) {
        case 0, 1 ->
            writer
                .create()
                .creatingParentsIfNeeded()
                .withMode(CreateMode.EPHEMERAL)
                .forPath(entry, data.getBytes());
        case 2 -> writer.setData().forPath(entry, data.getBytes());
        case 3 -> writer.delete().forPath(entry);
        default -> writer.delete().deletingChildrenIfNeeded().forPath(ROOT + "/" + kind);
      }
    } catch (KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
      // the random op did not apply: nothing changed
    }
  }
}
