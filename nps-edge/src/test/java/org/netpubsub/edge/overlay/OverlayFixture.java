package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.broker.Mosquitto;
import org.netpubsub.edge.broker.TestClient;
import org.netpubsub.edge.link.TestKeys;

/**
 * Real ZooKeeper (Curator's TestingServer, tick 100 ms so that 1 s sessions are allowed), real
 * Mosquitto per site, in-process routing and edge brokers on loopback; closes all in reverse.
 *
 * <p>Sessions: a client whose connection goes through a link the test cuts ({@link TcpProxy}) plays
 * a host that crashes, and its session expires {@link #SESSION} after the cut. Every other client
 * is healthy and gets {@link #HEALTHY_SESSION}. With 1 s sessions (a client is cut off after 667 ms
 * without an answer), at load 21-28, the sessions of 5 to 8 healthy clients expired in each of
 * three runs of one test, the leader's among them, often every client of the test at once (the test
 * JVM, and ZooKeeper's server in it, stalled): a new leader, or a broker registered again, moves
 * topics the tests watch.
 */
final class OverlayFixture implements AutoCloseable {
  static final Duration SESSION = Duration.ofMillis(1000);
  static final Duration HEALTHY_SESSION = Duration.ofSeconds(10);
  private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

  private final Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();
  private String connect;
  private Duration session = HEALTHY_SESSION;
  private CuratorFramework reader;
  private ZkAuth zkAuth; // null: clients without credentials

  OverlayFixture(Path dir) {
    this.dir = dir;
  }

  /**
   * A server with 100 ms ticks that grants sessions up to {@link #HEALTHY_SESSION} (not 20 ticks).
   */
  static InstanceSpec spec(int id) {
    return new InstanceSpec(
        null,
        -1,
        -1,
        -1,
        true,
        id,
        100,
        -1,
        Map.of("maxSessionTimeout", Long.toString(HEALTHY_SESSION.toMillis())));
  }

  OverlayFixture zookeeper() throws Exception {
    TestingServer zk = track(new TestingServer(spec(-1), true));
    connect = zk.getConnectString();
    return this;
  }

  OverlayFixture connectTo(String connectString) {
    connect = connectString;
    return this;
  }

  /** The session of the healthy clients made from now on (those the test cannot cut off). */
  OverlayFixture sessionTimeout(Duration d) {
    session = d;
    return this;
  }

  InetSocketAddress zookeeperAddress() {
    return target();
  }

  String connect() {
    return connect;
  }

  /** Every client made from now on authenticates with {@code auth} (znodes: its ACL only). */
  OverlayFixture zkAuth(ZkAuth auth) {
    zkAuth = auth;
    return this;
  }

  CuratorFramework client(String connectString) {
    // through a proxy (another connect string): a host the test crashes, expiring after SESSION
    Duration d = connectString.equals(connect) ? session : SESSION;
    return Zk.client(connectString, d, zkAuth);
  }

  /** A routing broker whose datagram keys come from the key znode ({@link ZkDatagramKeys}). */
  RoutingBroker routingBrokerWithZkKeys(String name) throws Exception {
    CuratorFramework c = client(connect);
    c.blockUntilConnected();
    ZkDatagramKeys keys = ZkDatagramKeys.start(c, true, name);
    RoutingBroker rb =
        track(RoutingBroker.start(name, c, ANY_PORT, AssignmentStrategy.TOPIC_COUNT, keys.auth()));
    track(keys); // closed before the broker closes its client
    return rb;
  }

  /** An edge broker whose datagram keys come from the key znode. */
  EdgeBroker edgeWithZkKeys(String name, Mosquitto local) throws Exception {
    CuratorFramework c = client(connect);
    c.blockUntilConnected();
    ZkDatagramKeys keys = ZkDatagramKeys.start(c, false, name);
    EdgeBroker e =
        track(
            EdgeBroker.start(
                EdgeBrokerConfig.of(name, name, local.uri(), ANY_PORT).withAuth(keys.auth()), c));
    track(keys);
    return e;
  }

  RoutingBroker routingBroker(String name) throws Exception {
    return routingBroker(name, connect);
  }

  RoutingBroker routingBroker(String name, String connectString) throws Exception {
    return track(
        RoutingBroker.start(
            name, client(connectString), ANY_PORT, AssignmentStrategy.TOPIC_COUNT, TestKeys.AUTH));
  }

  /**
   * A routing broker whose ZooKeeper connection goes through a proxy the test can cut. Healthy
   * until then, it has a healthy broker's session: with 1 s, at load 20-22 such a broker's session
   * expired twice before its crash and another broker led from the start.
   */
  Crashable crashableRoutingBroker(String name) throws Exception {
    TcpProxy proxy = track(new TcpProxy(target()));
    CuratorFramework c = Zk.client(proxy.connectString(), session, zkAuth);
    RoutingBroker rb =
        track(
            RoutingBroker.start(name, c, ANY_PORT, AssignmentStrategy.TOPIC_COUNT, TestKeys.AUTH));
    return new Crashable(rb, proxy, c, connect);
  }

  record Crashable(RoutingBroker broker, TcpProxy proxy, CuratorFramework client, String server) {
    /**
     * As a host crash: relaying stops, and the session expires {@link #SESSION} after the cut (the
     * server is told to end it then, as its own expiry of a 1 s session would).
     */
    void crash() throws Exception {
      org.apache.zookeeper.ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
      long id = zk.getSessionId();
      byte[] password = zk.getSessionPasswd();
      broker.stopRelaying();
      proxy.cut();
      CompletableFuture.runAsync(
          () -> expire(server, id, password),
          CompletableFuture.delayedExecutor(SESSION.toMillis(), TimeUnit.MILLISECONDS));
    }
  }

  /** Ends session {@code id} at the server: a second handle on it closes it (ephemerals go). */
  static void expire(String server, long id, byte[] password) {
    CountDownLatch connected = new CountDownLatch(1);
    try {
      org.apache.zookeeper.ZooKeeper other =
          new org.apache.zookeeper.ZooKeeper(
              server,
              (int) HEALTHY_SESSION.toMillis(),
              e -> {
                if (e.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                  connected.countDown();
                }
              },
              id,
              password);
      connected.await(HEALTHY_SESSION.toMillis(), TimeUnit.MILLISECONDS);
      other.close();
    } catch (Exception e) {
      throw new IllegalStateException("expiring session " + Long.toHexString(id), e);
    }
  }

  Mosquitto mosquitto() throws Exception {
    return track(Mosquitto.start(dir));
  }

  EdgeBroker edge(String name, Mosquitto local) throws Exception {
    return edge(name, local, connect, Map.of());
  }

  EdgeBroker edge(String name, Mosquitto local, String connectString, Map<String, Long> deadlines)
      throws Exception {
    return edge(name, local, connectString, c -> c.withDeadlines(deadlines, 4));
  }

  /** An edge broker whose configuration the test changes further (a WAN emulation, deadlines). */
  EdgeBroker edge(String name, Mosquitto local, UnaryOperator<EdgeBrokerConfig> configure)
      throws Exception {
    return edge(name, local, connect, configure);
  }

  private EdgeBroker edge(
      String name, Mosquitto local, String connectString, UnaryOperator<EdgeBrokerConfig> configure)
      throws Exception {
    EdgeBrokerConfig c =
        configure.apply(
            EdgeBrokerConfig.of(name, name, local.uri(), ANY_PORT).withAuth(TestKeys.AUTH));
    return track(EdgeBroker.start(c, client(connectString)));
  }

  TestClient mqttClient(Mosquitto m, String id) throws Exception {
    return track(new TestClient(m.pahoUri(), id));
  }

  /**
   * The whole tree as ZooKeeper holds it now, read directly (not through any broker's caches, which
   * hold only the topics their broker has business with).
   */
  OverlayView tree() {
    try {
      return readTree();
    } catch (Exception e) {
      throw new IllegalStateException("reading the tree", e);
    }
  }

  private OverlayView readTree() throws Exception {
    if (reader == null) {
      reader = track(client(connect));
      reader.blockUntilConnected();
    }
    Map<String, byte[]> nodes = new java.util.HashMap<>();
    Map<String, Integer> versions = new java.util.HashMap<>();
    for (String root : List.of(ZnodePaths.TOPICS, ZnodePaths.BROKERS)) {
      read(root, nodes, versions, true);
    }
    return OverlayView.of(nodes, p -> versions.getOrDefault(p, -1));
  }

  private void read(
      String path, Map<String, byte[]> nodes, Map<String, Integer> versions, boolean root)
      throws Exception {
    List<String> children;
    try {
      if (!root) {
        org.apache.zookeeper.data.Stat stat = new org.apache.zookeeper.data.Stat();
        nodes.put(path, reader.getData().storingStatIn(stat).forPath(path));
        versions.put(path, stat.getVersion());
      }
      children = reader.getChildren().forPath(path);
    } catch (org.apache.zookeeper.KeeperException.NoNodeException e) {
      return; // gone meanwhile
    }
    for (String c : children) {
      read(path + "/" + c, nodes, versions, false);
    }
  }

  /** True when the tree has the topic assigned with a subscriber entry. */
  boolean ready(String topic) {
    return tree()
        .topic(topic)
        .filter(t -> t.assignment().isPresent() && !t.subscribers().isEmpty())
        .isPresent();
  }

  private InetSocketAddress target() {
    String first = connect.split(",")[0];
    return new InetSocketAddress("127.0.0.1", Integer.parseInt(first.split(":")[1]));
  }

  <T extends AutoCloseable> T track(T t) {
    open.add(t);
    return t;
  }

  static void poll(String what, Duration timeout, BooleanSupplier condition) {
    Poll.until(what, timeout, condition);
  }

  @Override
  public void close() throws Exception {
    List<AutoCloseable> reverse = new ArrayList<>(open);
    Collections.reverse(reverse);
    for (AutoCloseable c : reverse) {
      try {
        c.close();
      } catch (Exception e) {
        // keep closing the rest
      }
    }
  }
}
