package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link EntryWriter} against a real ZooKeeper (Curator's TestingServer): a burst goes out in a few
 * multi transactions; an operation that fails inside a batch (another session's entry, a topic
 * whose containers do not exist) costs the others nothing; after a session expiry every entry is
 * this session's again and a removed one stays removed; closing deletes the entries.
 */
class EntryWriterTest {
  private static final Duration T = Duration.ofSeconds(20);
  private static final byte[] DATA = "{}".getBytes(StandardCharsets.UTF_8);

  private TestingServer zk;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final ConcurrentLinkedQueue<String> requests = new ConcurrentLinkedQueue<>();
  // when set, the first answer waits for it: the writer's request stays in flight meanwhile
  private volatile java.util.concurrent.CountDownLatch gate;
  private final EntryWriter.Listener listener =
      new EntryWriter.Listener() {
        @Override
        public void request(String kind, int ops, long nanos, int resultCode) {
          java.util.concurrent.CountDownLatch g = gate;
          if (g != null) {
            gate = null;
            try {
              g.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          requests.add(kind + (resultCode == 0 ? "" : ":" + resultCode));
        }
      };

  @BeforeEach
  void start() throws Exception {
    zk = new TestingServer(OverlayFixture.spec(-1), true);
  }

  @AfterEach
  void stop() throws Exception {
    java.util.Collections.reverse(open);
    for (AutoCloseable c : open) {
      c.close();
    }
    zk.close();
  }

  private CuratorFramework client() throws Exception {
    CuratorFramework c =
        CuratorFrameworkFactory.builder()
            .connectString(zk.getConnectString())
            .sessionTimeoutMs(2000) // the most a 100 ms tick allows
            .retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
            .build();
    c.start();
    assertThat(c.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
    open.add(c);
    // the roots, as every broker makes them at start (before its writer): left to the first
    // entry's single create, a batch that took that entry in (puts made while disconnected go as
    // one) had all its container creates fail with NoNode (-101), and so its multi
    OverlayTree.makeRoots(c);
    return c;
  }

  private EntryWriter writer(CuratorFramework c) {
    return writer(c, parent -> false);
  }

  private EntryWriter writer(CuratorFramework c, java.util.function.Predicate<String> parentKnown) {
    EntryWriter w = EntryWriter.start(c, "test", listener, EntryWriter.MAX_OPS, parentKnown);
    open.add(w);
    return w;
  }

  private static String path(int topic, int i) {
    return ZnodePaths.endpoint("t/" + topic, ZnodePaths.Role.SUBSCRIBER, "e-" + i);
  }

  /** The session holding {@code path}; 0 when it does not exist, -1 when ZooKeeper did not say. */
  private static long owner(CuratorFramework c, String path) {
    try {
      Stat s = c.checkExists().forPath(path);
      return s == null ? 0 : s.getEphemeralOwner();
    } catch (Exception e) {
      return -1;
    }
  }

  @Test
  void aBurstGoesOutInFewMultisAndEveryEntryIsEphemeral() throws Exception {
    CuratorFramework c = client();
    c.create().creatingParentContainersIfNeeded().forPath(path(0, 0) + "x"); // t/0's containers
    EntryWriter w = writer(c);
    putCommitted(w, 500, 1);
    long session = c.getZookeeperClient().getZooKeeper().getSessionId();
    for (int i = 0; i < 500; i += 50) {
      assertThat(owner(c, path(0, i))).isEqualTo(session);
    }
    assertThat(c.getChildren().forPath(ZnodePaths.topic("t/0") + "/sub")).hasSize(501);
    // one request at a time: the first put goes alone, the rest wait and go together (a multi
    // retried after a lost connection fails with NodeExists and falls back to single creates)
    assertThat(requests.stream().filter(r -> r.startsWith("multi")).count()).isBetween(1L, 20L);
  }

  @Test
  void aFailingOperationInABatchCostsTheOthersNothing() throws Exception {
    CuratorFramework c = client();
    CuratorFramework other = client();
    c.create().creatingParentContainersIfNeeded().forPath(path(0, 0) + "x");
    // another session holds e-3's entry (as a crashed predecessor's would, until it expires)
    other
        .create()
        .creatingParentContainersIfNeeded()
        .withMode(CreateMode.EPHEMERAL)
        .forPath(path(0, 3), DATA);
    EntryWriter w = writer(c);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    gate = release;
    w.put(path(0, 1), DATA); // goes alone, and its answer waits: the rest go into one multi
    for (int i = 2; i < 20; i++) {
      w.put(path(0, i), DATA);
    }
    w.put(path(7, 0), DATA); // topic t/7 does not exist: its containers are made first
    release.countDown();
    OverlayFixture.poll(
        "every entry committed",
        T,
        () ->
            java.util.stream.IntStream.range(1, 20).allMatch(i -> w.isCommitted(path(0, i)))
                && w.isCommitted(path(7, 0)));
    long session = c.getZookeeperClient().getZooKeeper().getSessionId();
    assertThat(owner(c, path(0, 3))).as("replaced by ours").isEqualTo(session);
    assertThat(owner(c, path(7, 0))).isEqualTo(session);
    assertThat(owner(c, path(0, 19))).isEqualTo(session);
    assertThat(requests).as("one multi, failed by e-3's NodeExists").containsOnlyOnce("multi:-110");
    assertThat(requests).contains("replace").doesNotContain("multi");
  }

  @Test
  void aBatchUnderNewTopicsFindsTheContainersSentJustAheadOfIt() throws Exception {
    CuratorFramework c = client();
    EntryWriter w = writer(c);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    gate = release;
    List<String> paths = new ArrayList<>(List.of(path(0, 0)));
    for (int i = 1; i < 7; i++) {
      paths.add(path(i % 3 + 1, i)); // topics t/1..t/3: neither they nor their containers exist
    }
    // the first goes alone and its answer waits: the rest go as one multi
    paths.forEach(p -> w.put(p, DATA));
    release.countDown();
    OverlayFixture.poll("every entry committed", T, () -> paths.stream().allMatch(w::isCommitted));
    // ZooKeeper applied the containers' creates before the multi sent right after them
    assertThat(requests).contains("multi").noneMatch(r -> r.startsWith("multi:"));
    assertThat(requests.stream().filter(r -> r.startsWith("container")).count())
        .as("t/0..t/3 and their sub containers")
        .isEqualTo(8);
  }

  @Test
  void containersTheCachesHoldAreNotCreatedAgainAndAWrongHintLosesNothing() throws Exception {
    CuratorFramework c = client();
    for (int t = 0; t < 4; t++) {
      c.create().creatingParentContainersIfNeeded().forPath(path(t, 0) + "x"); // t/0..t/3's
    }
    // t/0..t/3's containers exist and the caches say so; t/9's they claim but it is not there
    java.util.Set<String> held = new java.util.HashSet<>();
    for (int t : new int[] {0, 1, 2, 3, 9}) {
      held.add(ZnodePaths.topic("t/" + t) + "/sub");
    }
    EntryWriter w = writer(c, held::contains);
    putCommitted(w, 40, 4);
    assertThat(requests).as("no container created").noneMatch(r -> r.startsWith("container"));
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    gate = release;
    w.put(path(0, 50), DATA); // goes alone, and its answer waits: the next two go as one multi
    w.put(path(9, 0), DATA);
    w.put(path(9, 1), DATA);
    release.countDown();
    OverlayFixture.poll(
        "the entries under a missing container",
        T,
        () -> w.isCommitted(path(9, 0)) && w.isCommitted(path(9, 1)));
    long session = c.getZookeeperClient().getZooKeeper().getSessionId();
    assertThat(owner(c, path(9, 0))).isEqualTo(session);
    assertThat(owner(c, path(9, 1))).isEqualTo(session);
    assertThat(requests).as("the multi failed on the missing container").contains("multi:-101");
  }

  @Test
  void afterASessionExpiryTheEntriesAreOursAgainAndARemovedOneStaysRemoved() throws Exception {
    CuratorFramework c = client();
    EntryWriter w = writer(c);
    putCommitted(w, 30, 3);
    long before = c.getZookeeperClient().getZooKeeper().getSessionId();
    c.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
    w.remove(path(0, 0));
    OverlayFixture.poll(
        "a new session",
        T,
        () -> {
          try {
            long now = c.getZookeeperClient().getZooKeeper().getSessionId();
            return now != before && c.getZookeeperClient().isConnected();
          } catch (Exception e) {
            return false;
          }
        });
    long after = c.getZookeeperClient().getZooKeeper().getSessionId();
    OverlayFixture.poll(
        "29 entries held by the new session",
        T,
        () ->
            java.util.stream.IntStream.range(1, 30)
                .allMatch(i -> owner(c, path(i % 3, i)) == after));
    // the old session's entry of the removed path goes when the server expires that session
    OverlayFixture.poll("the removed entry gone", T, () -> owner(c, path(0, 0)) == 0);
    for (int i = 1; i < 30; i++) {
      assertThat(owner(c, path(i % 3, i))).as("entry %d", i).isEqualTo(after);
    }
    assertThat(w.paths()).hasSize(29).doesNotContain(path(0, 0));
  }

  @Test
  void closingDeletesTheEntries() throws Exception {
    CuratorFramework c = client();
    EntryWriter w = writer(c);
    putCommitted(w, 40, 4);
    w.close(5000);
    for (int i = 0; i < 40; i++) {
      assertThat(c.checkExists().forPath(path(i % 4, i))).isNull();
    }
  }

  /**
   * Puts {@code n} entries, entry i under topic i mod {@code topics}, and waits until committed.
   */
  private static void putCommitted(EntryWriter w, int n, int topics) {
    for (int i = 0; i < n; i++) {
      w.put(path(i % topics, i), DATA);
    }
    OverlayFixture.poll(
        n + " entries committed",
        T,
        () ->
            java.util.stream.IntStream.range(0, n)
                .allMatch(i -> w.isCommitted(path(i % topics, i))));
  }
}
