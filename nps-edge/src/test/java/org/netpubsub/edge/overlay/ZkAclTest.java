package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 part 4, against a real ZooKeeper server: the znodes a client with {@code
 * --zookeeper-auth} creates (parents, containers, ephemerals, inside multi transactions, as the
 * overlay and the controller cluster create theirs) are readable and writable with the credentials,
 * and a client without them, or with another password, can read nothing and write nothing.
 */
class ZkAclTest {
  private static final Duration T = Duration.ofSeconds(20);
  private static final byte[] DATA = "{}".getBytes(StandardCharsets.UTF_8);
  private static final ZkAuth AUTH = new ZkAuth("nps", "s3cret-for-tests");

  private TestingServer zk;

  @BeforeEach
  void start() throws Exception {
    zk = new TestingServer(OverlayFixture.spec(-1), true);
  }

  @AfterEach
  void stop() throws Exception {
    zk.close();
  }

  @Test
  void withoutTheCredentialsNothingCanBeReadOrWritten() throws Exception {
    try (CuratorFramework owner = Zk.connected(zk.getConnectString(), T, T, AUTH);
        CuratorFramework stranger = Zk.connected(zk.getConnectString(), T, T);
        CuratorFramework wrong =
            Zk.connected(zk.getConnectString(), T, T, new ZkAuth("nps", "guess"))) {
      owner.create().creatingParentContainersIfNeeded().forPath("/nps/overlay/topics/t", DATA);
      owner.create().withMode(CreateMode.EPHEMERAL).forPath("/nps/overlay/topics/t/e1", DATA);
      owner
          .transaction()
          .forOperations(
              owner.transactionOp().create().forPath("/nps/cluster", DATA),
              owner.transactionOp().create().forPath("/nps/cluster/m1", DATA));
      assertThat(owner.getData().forPath("/nps/overlay/topics/t/e1")).isEqualTo(DATA);
      owner.setData().forPath("/nps/cluster/m1", DATA);

      for (String path :
          new String[] {"/nps", "/nps/overlay", "/nps/overlay/topics/t", "/nps/cluster/m1"}) {
        for (CuratorFramework c : new CuratorFramework[] {stranger, wrong}) {
          assertThatThrownBy(() -> c.getData().forPath(path))
              .isInstanceOf(KeeperException.NoAuthException.class);
          assertThatThrownBy(() -> c.getChildren().forPath(path))
              .isInstanceOf(KeeperException.NoAuthException.class);
          assertThatThrownBy(() -> c.setData().forPath(path, "x".getBytes()))
              .isInstanceOf(KeeperException.NoAuthException.class);
          assertThatThrownBy(() -> c.create().forPath(path + "/intruder", DATA))
              .isInstanceOf(KeeperException.NoAuthException.class);
          assertThatThrownBy(() -> c.setACL().withACL(null).forPath(path))
              .isInstanceOf(KeeperException.NoAuthException.class);
        }
      }
      assertThatThrownBy(() -> stranger.delete().forPath("/nps/overlay/topics/t/e1"))
          .isInstanceOf(KeeperException.NoAuthException.class);
      assertThat(owner.checkExists().forPath("/nps/overlay/topics/t/e1")).isNotNull();
      assertThat(owner.getChildren().forPath("/nps/overlay/topics/t")).containsExactly("e1");
    }
  }

  @Test
  void credentialsFilesAreParsedAndBadOnesRefused() {
    assertThat(ZkAuth.parse("nps:pa:ss\n", "--zookeeper-auth f"))
        .isEqualTo(new ZkAuth("nps", "pa:ss"));
    assertThat(ZkAuth.parse("nps:x", "f").toString()).doesNotContain("x]").contains("***");
    assertThatThrownBy(() -> ZkAuth.parse("nopassword", "--zookeeper-auth f"))
        .hasMessageContaining("--zookeeper-auth f");
    assertThatThrownBy(() -> ZkAuth.parse("nps:", "f")).hasMessageContaining("password");
    assertThatThrownBy(() -> ZkAuth.parse(":pw", "f")).hasMessageContaining("user");
    assertThatThrownBy(() -> ZkAuth.parse("a:b\nc:d", "f")).hasMessageContaining("one line");
  }
}
