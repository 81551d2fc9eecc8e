package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.edge.overlay.OverlayFixture.poll;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;

/**
 * Revoking an overlay edge once, in the revoked-edges znode (issue 27 part 5), on a real ZooKeeper
 * with digest ACLs and real brokers: a routing broker and an edge broker refuse the edge's
 * datagrams after the znode names it and accept them again once lifted; a malformed znode keeps the
 * last good list; a session's end is followed by a read; a client without the credentials can
 * neither read nor write the znode, and a znode anyone may write is refused.
 */
class ZkRevokedEdgesTest {
  private static final Duration T = Duration.ofSeconds(20);
  private static final ZkAuth AUTH = new ZkAuth("overlay", "s3cret-for-tests");
  private static final String RECEIVED = "received";
  private static final String REVOKED = "dropped.revoked_origin";
  private static final String INVALID = "dropped.revoked_znode_invalid";

  @TempDir Path dir;

  @Test
  void aRoutingBrokerRefusesAnEdgeOnceTheZnodeNamesItKeepsABadEditOutAndAcceptsItWhenLifted()
      throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper().zkAuth(AUTH);
        CuratorFramework admin = Zk.connected(f.connect(), T, T, AUTH);
        CuratorFramework watcher = Zk.connected(f.connect(), T, T, AUTH);
        DatagramSocket x = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
      RoutingBroker rb = f.routingBroker("rb1");
      RevokedUnion union = new RevokedUnion();
      union.file(Set.of("from-file")); // the broker's --revoked-edges, beside the znode
      try (ZkRevokedEdges zk = ZkRevokedEdges.start(watcher, union::zookeeper)) {
        union.attach(rb::revokeEdges);
        // x holds its own key only; the deployment keys may name any origin
        DatagramAuth own = DatagramAuth.of(EdgeKeys.derive(TestKeys.AUTH.keys(), "x"));
        assertThat(outcome(rb::counters, x, rb.address(), own, "x")).isEqualTo(RECEIVED);
        assertThat(outcome(rb::counters, x, rb.address(), own, "from-file")).isEqualTo(REVOKED);

        ZkRevokedEdges.update(admin, old -> plus(old, "x"));
        poll(
            "x refused once the znode names it",
            T,
            () -> outcome(rb::counters, x, rb.address(), own, "x").equals(REVOKED));
        assertThat(outcome(rb::counters, x, rb.address(), TestKeys.AUTH, "x"))
            .as("whatever its key")
            .isEqualTo(REVOKED);

        // a bad edit lifts nothing: counted, x still refused
        admin.setData().forPath(ZnodePaths.REVOKED_EDGES, bytes("{\"revoked_edges\":[\"a/b\"]}"));
        poll("the bad edit counted", T, () -> zk.counters().get(INVALID) == 1);
        admin.setData().forPath(ZnodePaths.REVOKED_EDGES, bytes("{"));
        poll("the second bad edit counted", T, () -> zk.counters().get(INVALID) == 2);
        assertThat(zk.edges()).containsExactly("x");
        assertThat(outcome(rb::counters, x, rb.address(), own, "x")).isEqualTo(REVOKED);

        ZkRevokedEdges.replace(admin, Set.of()); // unrevoke --all: rewrites even a bad znode
        poll(
            "x accepted once lifted",
            T,
            () -> outcome(rb::counters, x, rb.address(), own, "x").equals(RECEIVED));
        assertThat(outcome(rb::counters, x, rb.address(), own, "from-file")).isEqualTo(REVOKED);
        assertThat(zk.counters().get(INVALID)).isEqualTo(2);
      }
    }
  }

  @Test
  void anEdgeBrokerRefusesARevokedOriginAndReadsTheZnodeAgainAfterItsSessionEnded()
      throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper().zkAuth(AUTH);
        CuratorFramework admin = Zk.connected(f.connect(), T, T, AUTH);
        TcpProxy proxy = new TcpProxy(f.zookeeperAddress());
        CuratorFramework watcher = Zk.client(proxy.connectString(), OverlayFixture.SESSION, AUTH);
        DatagramSocket x = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
      watcher.blockUntilConnected();
      Mosquitto m = f.mosquitto();
      EdgeBroker rome = f.edge("rome", m);
      AtomicReference<Set<String>> applied = new AtomicReference<>();
      try (ZkRevokedEdges zk =
          ZkRevokedEdges.start(
              watcher,
              s -> {
                applied.set(s);
                rome.revokeEdges(s);
              })) {
        assertThat(applied.get()).isEmpty(); // no znode yet: nothing revoked
        // a message sent directly to rome (a deadline copy, a replay) under the deployment keys
        assertThat(outcome(rome::counters, x, rome.address(), TestKeys.AUTH, "x"))
            .isEqualTo(RECEIVED);
        ZkRevokedEdges.update(admin, old -> plus(old, "x"));
        poll(
            "x refused by rome",
            T,
            () -> outcome(rome::counters, x, rome.address(), TestKeys.AUTH, "x").equals(REVOKED));

        // the watcher's session ends while x is lifted: the read after the reconnect sees it
        var zkHandle = watcher.getZookeeperClient().getZooKeeper();
        proxy.pause();
        OverlayFixture.expire(f.connect(), zkHandle.getSessionId(), zkHandle.getSessionPasswd());
        ZkRevokedEdges.update(admin, old -> Set.of());
        proxy.resume();
        poll("the lifted list read after the new session", T, () -> applied.get().isEmpty());
        assertThat(outcome(rome::counters, x, rome.address(), TestKeys.AUTH, "x"))
            .isEqualTo(RECEIVED);
      }
    }
  }

  @Test
  void withoutTheCredentialsTheZnodeCannotBeReadOrWrittenAndAnOpenOneIsRefused() throws Exception {
    try (OverlayFixture f = new OverlayFixture(dir).zookeeper();
        CuratorFramework admin = Zk.connected(f.connect(), T, T, AUTH);
        CuratorFramework stranger = Zk.connected(f.connect(), T, T);
        CuratorFramework wrong =
            Zk.connected(f.connect(), T, T, new ZkAuth("overlay", "a-guess"))) {
      assertThat(ZkRevokedEdges.update(admin, old -> plus(old, "x"))).containsExactly("x");
      assertThat(ZkRevokedEdges.read(admin)).containsExactly("x");
      for (CuratorFramework c : List.of(stranger, wrong)) {
        assertThatThrownBy(() -> c.getData().forPath(ZnodePaths.REVOKED_EDGES))
            .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(
                () -> c.setData().forPath(ZnodePaths.REVOKED_EDGES, RevokedZnode.toJson(Set.of())))
            .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> c.delete().forPath(ZnodePaths.REVOKED_EDGES))
            .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> ZkRevokedEdges.update(c, old -> Set.of()))
            .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> ZkRevokedEdges.start(c, s -> {}))
            .isInstanceOf(KeeperException.NoAuthException.class);
      }
      assertThat(ZkRevokedEdges.read(admin)).containsExactly("x");

      // a bad znode at start refuses the start, naming the field
      admin.setData().forPath(ZnodePaths.REVOKED_EDGES, bytes("{\"revoked_edges\":[1]}"));
      assertThatThrownBy(() -> ZkRevokedEdges.start(admin, s -> {}))
          .hasMessageContaining("'revoked_edges[0]' is not an edge name");
      assertThatThrownBy(() -> ZkRevokedEdges.update(admin, old -> old))
          .hasMessageContaining("'revoked_edges[0]'")
          .hasMessageContaining("unrevoke --all");

      // a list a client without credentials wrote is anyone's to change: no broker takes it
      stranger.create().forPath("/open");
      try (CuratorFramework open = Zk.connected(f.connect() + "/open", T, T)) {
        ZkRevokedEdges.update(open, old -> plus(old, "x"));
        assertThatThrownBy(() -> ZkRevokedEdges.start(open, s -> {}))
            .hasMessageContaining("writable by anyone");
      }
    }
  }

  private static Set<String> plus(Set<String> old, String name) {
    Set<String> out = new TreeSet<>(old);
    out.add(name);
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Sends one message naming {@code origin}, sealed under {@code key}, to {@code to}; the counter
   * it moved: {@link #RECEIVED}, {@link #REVOKED} or {@code dropped.unauthenticated}.
   */
  private static String outcome(
      Supplier<Map<String, Long>> counters,
      DatagramSocket s,
      InetSocketAddress to,
      DatagramAuth key,
      String origin) {
    List<String> names = List.of(RECEIVED, REVOKED, "dropped.unauthenticated");
    long[] before = names.stream().mapToLong(n -> counters.get().getOrDefault(n, 0L)).toArray();
    try {
      byte[] d = DatagramCodec.encode(new EdgeMessage(origin, 1, "probe/t", bytes("p"), 0, false));
      byte[] sealed = TestKeys.seal(key, d);
      s.send(new DatagramPacket(sealed, sealed.length, to));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    String[] moved = {null};
    poll(
        "the datagram counted",
        Duration.ofSeconds(5),
        () -> {
          Map<String, Long> now = counters.get();
          for (int i = 0; i < names.size(); i++) {
            if (now.getOrDefault(names.get(i), 0L) > before[i]) {
              moved[0] = names.get(i);
              return true;
            }
          }
          return false;
        });
    return moved[0];
  }
}
