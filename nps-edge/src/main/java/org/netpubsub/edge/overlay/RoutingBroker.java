package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.DatagramException;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.DatagramLink;
import org.netpubsub.edge.link.Datagrams;
import org.netpubsub.edge.link.WanEmulation;

/**
 * A routing broker (paper §2.1, Algorithm 1): registers its ephemeral {@code /brokers/<rb>},
 * contends for {@code /leader}, and relays the datagrams edges send it to the subscribed edges of
 * other sites, learning endpoints from the tree. As leader it also assigns topics ({@link
 * Reconciler}) whenever the tree changes, and on taking leadership. Threads: one receives and
 * relays; the tree's thread runs the leader's writes; one reports the message rate.
 */
public final class RoutingBroker implements Closeable {
  private static final Logger LOG = Logger.getLogger(RoutingBroker.class.getName());

  private final String name;
  private final CuratorFramework client;
  private final DatagramSocket socket;
  private final DatagramLink link;
  private final DatagramAuth auth;
  private final OriginCheck origins;
  private final PersistentNode registration;
  private final LeaderLatch latch;
  private final OverlayTree tree;
  private final AssignmentStrategy strategy;
  private final Counters counters = new Counters();
  private static final long RELAYED_KEPT_MS = 60_000;
  private static final long TOPIC_LOAD_MS = 2_000;
  // Topics the leader moves per second onto a broker that joined later: every move reroutes a
  // live topic (its edges follow the new assignment; the old broker still relays stragglers), so
  // a new broker takes its share gradually — 1 000 topics over two brokers reach a third one's
  // share in about 17 s.
  static final int REBALANCE_MOVES_PER_SECOND = 20;
  private final Map<String, Long> relayedAt = new ConcurrentHashMap<>(); // topic -> last datagram
  private final Thread relay;
  private final ScheduledExecutorService rates;
  private volatile boolean closed;
  private volatile boolean crashed;
  private long lastCount;
  private double reportedRate;

  private RoutingBroker(
      String name,
      CuratorFramework client,
      DatagramSocket socket,
      AssignmentStrategy strategy,
      WanEmulation emulation,
      DatagramAuth auth)
      throws Exception {
    this.link = DatagramLink.of(socket, emulation); // OriginCheck seals what it relays
    this.auth = auth;
    this.origins = new OriginCheck(auth);
    this.name = ZnodePaths.checkName(name);
    this.client = client;
    this.socket = socket;
    this.strategy = strategy;
    this.tree = new OverlayTree(client, name, true);
    this.registration =
        new PersistentNode(
            client,
            CreateMode.EPHEMERAL,
            false,
            ZnodePaths.broker(name),
            ZnodeData.broker(new BrokerInfo(address(), 0)));
    this.latch = new LeaderLatch(client, ZnodePaths.LEADER, name);
    this.relay = Thread.ofPlatform().daemon().name("nps-rb-relay-" + name).unstarted(this::relay);
    this.rates =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("nps-rb-rate-" + name).factory());
  }

  /**
   * Starts a routing broker named {@code name} on its own client (closed with it), receiving
   * datagrams at {@code listen} (a specific address: it is what edges are told).
   */
  public static RoutingBroker start(
      String name,
      CuratorFramework client,
      InetSocketAddress listen,
      AssignmentStrategy strategy,
      DatagramAuth auth)
      throws Exception {
    return start(name, client, listen, strategy, null, auth);
  }

  /**
   * As above, sending over an emulated WAN (experiments only; null: the production path). Only
   * datagrams whose tag verifies under {@code auth} are relayed, with their tag.
   */
  public static RoutingBroker start(
      String name,
      CuratorFramework client,
      InetSocketAddress listen,
      AssignmentStrategy strategy,
      WanEmulation emulation,
      DatagramAuth auth)
      throws Exception {
    if (auth == null) {
      throw new IllegalArgumentException(
          "datagrams are authenticated: a routing broker needs --datagram-key FILE, or keys in"
              + " ZooKeeper with --zookeeper-auth (or --insecure-datagrams for tests)");
    }
    DatagramSocket socket = new DatagramSocket(null);
    socket.setReceiveBufferSize(4 << 20);
    socket.bind(listen);
    RoutingBroker rb;
    try {
      rb = new RoutingBroker(name, client, socket, strategy, emulation, auth);
    } catch (Exception e) {
      socket.close();
      throw e;
    }
    try {
      rb.tree.addListener(rb::onTree);
      rb.tree.start(30_000);
      rb.registration.start();
      if (!rb.registration.waitForInitialCreate(30, TimeUnit.SECONDS)) {
        throw new IOException("could not register " + ZnodePaths.broker(name));
      }
      rb.latch.addListener(
          new LeaderLatchListener() {
            @Override
            public void isLeader() {
              LOG.info("routing broker " + name + " leads: reconciling the tree");
              rb.tree.touch(); // a new leader reads the tree and fixes what is wrong
            }

            @Override
            public void notLeader() {}
          });
      rb.latch.start();
      rb.relay.start();
      rb.rates.scheduleWithFixedDelay(rb::reportRate, 2, 2, TimeUnit.SECONDS);
      rb.rates.scheduleWithFixedDelay(rb::rebalance, 1, 1, TimeUnit.SECONDS);
      return rb;
    } catch (Exception e) {
      rb.close();
      throw e;
    }
  }

  public String name() {
    return name;
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  public boolean isLeader() {
    return latch.hasLeadership();
  }

  /** CPU time the relay thread has used, in ns (-1 where the JVM cannot tell): its load. */
  public long relayCpuNanos() {
    var mx = java.lang.management.ManagementFactory.getThreadMXBean();
    return mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(relay.threadId()) : -1;
  }

  public Map<String, Long> counters() {
    return counters.snapshot();
  }

  /** The topics this broker caches (its assigned and recently relayed ones) and the brokers. */
  public OverlayView view() {
    return tree.view();
  }

  /** The edges whose endpoints the {@code /edges} directory holds, as this broker sees it. */
  public Set<String> knownEdges() {
    return tree.knownEdges();
  }

  /** The topic index: every topic's assignment, no entries (what the leader assigns from). */
  public OverlayView index() {
    return tree.index();
  }

  // ---- the leader (the tree's thread) ----

  /**
   * The topics this broker caches in full (Algorithm 1's endpoint caches): those assigned to it,
   * and those it relayed within {@link #RELAYED_KEPT_MS} (an edge may follow a new assignment
   * before this broker's index shows it, and a broker that lost a topic still gets its stragglers).
   */
  private Set<String> wantedTopics() {
    long now = System.currentTimeMillis();
    relayedAt.values().removeIf(t -> now - t > RELAYED_KEPT_MS);
    Set<String> out = new HashSet<>(relayedAt.keySet());
    tree.index()
        .topics()
        .forEach(
            (t, s) -> {
              if (s.assignment().filter(a -> a.broker().equals(name)).isPresent()) {
                out.add(t);
              }
            });
    return out;
  }

  private void onTree(OverlayView view) {
    if (closed) {
      return;
    }
    tree.retainTopics(this::wantedTopics);
    if (!latch.hasLeadership()) {
      return;
    }
    write(Reconciler.plan(tree.index(), strategy), false);
  }

  /** The leader, once a second: moves a few topics onto a broker that joined later. */
  private void rebalance() {
    if (closed || !latch.hasLeadership() || strategy != AssignmentStrategy.TOPIC_COUNT) {
      return;
    }
    try {
      OverlayView index = tree.index();
      if (Reconciler.plan(index, strategy).isEmpty()) { // orphans first, on the tree's thread
        write(Reconciler.rebalance(index, REBALANCE_MOVES_PER_SECOND), true);
      }
    } catch (RuntimeException e) { // would cancel the schedule
      LOG.log(Level.WARNING, "rebalancing", e);
    }
  }

  /** Each change conditional on the topic's version: a stale view or leader writes nothing. */
  private void write(List<Assignment.Change> changes, boolean moves) {
    for (Assignment.Change c : changes) {
      try {
        client
            .setData()
            .withVersion(c.version())
            .forPath(ZnodePaths.topic(c.topic()), ZnodeData.assignment(c.after()));
        counters.add(moves ? "rebalanced" : c.before().isPresent() ? "reassigned" : "assigned");
        LOG.fine(() -> "topic " + c.topic() + " -> " + c.after().broker());
      } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
        counters.add("assign_conflicts"); // the view was stale: its update reconciles again
      } catch (Exception e) {
        if (!closed) {
          LOG.log(Level.WARNING, "assigning " + c.topic(), e);
        }
      }
    }
  }

  // ---- the data path (relay thread) ----

  private void relay() {
    Datagrams.receiveUntil(
        socket, () -> closed, LOG, this::check, this::refused, this::relayDatagram);
  }

  /**
   * One datagram as the relay thread handles it after its receive: checked, then relayed or
   * counted. One thread at a time, and only while no datagram reaches the socket (the relay thread
   * then waits in its receive): for measuring the relay's CPU per datagram in one thread (the test
   * side's {@code RelayCpu}).
   */
  void receive(DatagramPacket p) {
    Datagrams.deliver(p, this::check, this::refused, this::relayDatagram);
  }

  private int check(byte[] buf, int off, int len, DatagramPacket packet) {
    return origins.open(buf, off, len);
  }

  private void refused() {
    counters.drop(origins.refusal());
  }

  /** One datagram: relayed to the edges with remote subscribers. */
  private void relayDatagram(DatagramPacket p) {
    counters.add("received");
    EdgeMessage m;
    try {
      m = DatagramCodec.decode(p.getData(), p.getOffset(), p.getLength());
    } catch (DatagramException e) {
      counters.drop(e.reason());
      return;
    }
    var topic = tree.view().topic(m.topic());
    if (topic.isEmpty() && tree.index().topics().containsKey(m.topic())) {
      // a topic not cached yet (the index knows every topic, so junk names cache nothing)
      relayedAt.put(m.topic(), System.currentTimeMillis()); // before awaitTopic: see retainTopics
      try {
        topic = tree.awaitTopic(m.topic(), TOPIC_LOAD_MS); // not cached yet: load it now
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (topic.isEmpty()) {
      counters.drop("unknown_topic");
      return;
    }
    relayedAt.put(m.topic(), System.currentTimeMillis());
    List<Map.Entry<String, Endpoint>> targets = Relay.targetEdges(topic.get(), m.origin());
    if (targets.isEmpty()) {
      counters.drop("no_remote_subscribers");
      return;
    }
    for (Map.Entry<String, Endpoint> e : targets) {
      try {
        Endpoint to = e.getValue(); // its own key only: re-sealed, else the origin's tag as is
        int n = origins.sealFor(p.getData(), p.getOffset(), p.getLength(), e.getKey(), to.ownKey());
        link.send(p.getData(), p.getOffset(), n, e.getValue().address());
        counters.add("relayed");
      } catch (IOException x) {
        counters.drop("send_failed");
      }
    }
  }

  /**
   * From now on refuses every datagram naming one of {@code edges} as its origin (counted as {@code
   * dropped.revoked_origin}); the set replaces the previous one. Entries and subscriptions stay.
   */
  public void revokeEdges(Set<String> edges) {
    origins.revoke(edges);
  }

  private void reportRate() {
    long now = counters.get("received");
    double rate = (now - lastCount) / 2.0;
    lastCount = now;
    // rewrite only on a real change: every write wakes every broker's cache
    if (Math.abs(rate - reportedRate) > Math.max(1, reportedRate * 0.2)) {
      reportedRate = rate;
      try {
        registration.setData(ZnodeData.broker(new BrokerInfo(address(), rate)));
      } catch (Exception e) {
        LOG.fine("rate: " + e);
      }
    }
  }

  /**
   * Stops as a crash would, for tests: no more relaying, and the ZooKeeper session is left to
   * whoever closes the client (or to its expiry).
   */
  void stopRelaying() {
    crashed = true;
    closed = true;
    socket.close();
    rates.shutdownNow();
  }

  @Override
  public void close() {
    closed = true;
    link.close();
    socket.close();
    rates.shutdownNow();
    if (crashed) {
      // nothing to clean up in ZooKeeper: a crashed broker's session expires (and waiting on a
      // cut connection would take the retry policy's whole time)
      tree.close();
      client.close();
      return;
    }
    try {
      latch.close();
    } catch (IOException | IllegalStateException e) {
      LOG.fine("latch: " + e);
    }
    try {
      registration.close();
    } catch (IOException e) {
      LOG.fine("registration: " + e);
    }
    tree.close();
    client.close();
    try {
      relay.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
