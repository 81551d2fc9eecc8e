package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.netpubsub.edge.broker.RepairCodec.Repair;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.DatagramLink;
import org.netpubsub.edge.link.Datagrams;

/**
 * The broker-neutral half of an {@link EdgeAgent}: registration at the coordinator, route lookup
 * and caching, the datagram socket (send for Agent-Sub, the receive loop for Agent-Pub), counters,
 * the ordered reports ({@link FilterReporter}) and the long-poll of the coordinator's changes. The
 * broker side ({@link Local}) feeds it what local clients publish ({@link #forward}) and publishes
 * what it hands over. Threads: one receives datagrams (Agent-Pub), one polls changes, the reporter
 * and the {@link KeyPoller} (keys from the coordinator) have their own; {@link #forward} runs on
 * the broker side's one delivery thread. The route cache is the only state they share (guarded by
 * itself).
 */
final class AgentCore<L extends LocalFilters> implements Closeable {
  private static final Logger LOG = Logger.getLogger(AgentCore.class.getName());
  private static final Duration RETRY = Duration.ofMillis(200);

  /**
   * The wait before registering again after the coordinator refused it (403: the edge is revoked,
   * docs/security-datagrams.md): long enough not to hammer it, short enough to return soon after
   * the operator lifts the revocation.
   */
  private static final Duration REFUSED_RETRY = Duration.ofSeconds(5);

  /** What the core needs from the broker side. */
  interface Local {
    /** Agent-Pub: puts a message from another edge into the local broker. */
    void publish(EdgeMessage m) throws Exception;

    /** The edge (re)registered at the coordinator. */
    default void registered() {}

    /** The coordinator says the exchanges this edge mirrors changed. */
    default void exchangesChanged() {}

    /** The local broker's retained messages, for an edge that registers later (MQTT only). */
    default List<EdgeMessage> retained() throws Exception {
      return List.of();
    }
  }

  final String edge;
  final CoordinatorClient coordinator;
  final AgentCounters counters = new AgentCounters();
  private final DatagramSocket socket;
  private final DatagramLink link; // the socket, or an emulated lossy WAN around it (experiments)
  private final AgentKeys agentKeys; // every datagram sent is sealed, every one received checked
  private final KeyPoller keys; // null unless the deployment keys come from the coordinator
  private final OwnKeyPoller ownKeys; // null unless an own-key agent's keys come from it
  private final ReliableDelivery reliable; // null unless --reliable
  private final RetainedReplay replay;
  private final RouteCache routes;
  private final Map<String, Long> sequences = new HashMap<>(); // the delivery thread only
  private final FilterReporter<L> reporter;
  private final Thread receiver;
  private final Thread changes;
  private final Duration changeWait;
  private Local local;
  private volatile String mode;
  private volatile boolean closed;
  private volatile boolean left; // after leave(), a 404 means "gone", not "register again"
  private volatile boolean refused; // the last registration again was refused (logged once)

  AgentCore(EdgeAgent.Builder b, DatagramSocket socket, L filters) {
    this.edge = b.edge;
    this.coordinator =
        new CoordinatorClient(
            b.coordinator, b.coordinatorTimeout, b.coordinatorToken, b.coordinatorTls);
    this.socket = socket;
    this.keys = b.keyPoller;
    this.ownKeys = b.ownKeyPoller;
    DatagramAuth auth =
        keys != null
            ? keys.auth()
            : ownKeys != null
                ? ownKeys.auth()
                : Objects.requireNonNull(b.auth, "datagram authentication (a key, or insecure)");
    this.agentKeys =
        b.senders == null
            ? AgentKeys.deployment(edge, auth)
            : AgentKeys.ownKey(edge, auth, ownKeys != null ? ownKeys.senders() : b.senders);
    agentKeys.revoke(b.revoked); // this host's --revoked-edges, beside the coordinator's
    if (ownKeys != null || keys != null) {
      agentKeys.revokedByCoordinator(ownKeys != null ? ownKeys.revoked() : keys.revoked());
    }
    this.link = DatagramLink.of(socket, b.emulation, agentKeys.sealer());
    this.reliable =
        b.reliable == null
            ? null
            : new ReliableDelivery(edge, session(), b.reliable, link, counters, this::publish);
    this.replay =
        new RetainedReplay(edge, coordinator, () -> local.retained(), this::sendOne, counters);
    this.routes = new RouteCache(b.routeCacheSize);
    this.changeWait = b.changeWait;
    this.reporter = new FilterReporter<>(edge, filters, coordinator, counters, this::reRegister);
    this.receiver =
        Thread.ofPlatform().daemon().name("nps-agent-pub-" + edge).unstarted(this::receive);
    this.changes =
        Thread.ofPlatform().daemon().name("nps-agent-changes-" + edge).unstarted(this::pollChanges);
  }

  /**
   * A non-zero random session from a strong source: a restarted agent's numbers are never taken for
   * old ones, and nobody who saw none of its datagrams can guess it.
   */
  private static long session() {
    long s;
    do {
      s = SESSIONS.nextLong();
    } while (s == 0);
    return s;
  }

  private static final SecureRandom SESSIONS = new SecureRandom();

  /** Binds a socket for an agent (large receive buffer: bursts arrive faster than brokers take). */
  static DatagramSocket bind(InetSocketAddress listen) throws IOException {
    DatagramSocket socket = new DatagramSocket(null);
    try {
      socket.setReceiveBufferSize(4 << 20);
      socket.bind(listen);
      return socket;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  FilterReporter<L> reporter() {
    return reporter;
  }

  /** Registers at the coordinator (refusing with its reason if it cannot). */
  void register(Local side) throws IOException {
    this.local = side;
    try {
      register();
    } catch (CoordinatorClient.CoordinatorException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** Starts Agent-Pub and the change poll, once the broker side is connected. */
  void start() {
    receiver.start();
    changes.start();
    if (ownKeys != null) {
      ownKeys.start(edge, agentKeys);
    }
    if (keys != null) {
      keys.start(edge, agentKeys);
    }
    replay.registered(); // now that the broker is connected: its retained messages, if late
  }

  private void register() throws CoordinatorClient.CoordinatorException {
    InetSocketAddress at = (InetSocketAddress) socket.getLocalSocketAddress();
    CoordinatorClient.Registration r = coordinator.register(edge, at);
    mode = r.mode();
    synchronized (routes) {
      routes.invalidate(r.version(), true, List.of());
    }
    reporter.registered(r.filters());
    local.registered();
  }

  // ---- Agent-Sub (the broker side's delivery thread) ----

  /** Sends what a local client published on coordinator topic {@code topic} to its route. */
  void forward(String topic, byte[] payload, int qos, boolean retain) {
    if (retain) {
      replay.live(topic); // newer than any replay of the topic
    }
    Optional<Route> route = route(topic, retain);
    if (route.isEmpty()) {
      counters.drop("no_route");
      return;
    }
    if (route.get().targets().isEmpty()) {
      return; // nobody elsewhere subscribes
    }
    long seq = sequences.merge(topic, 1L, Long::sum);
    byte[] bytes;
    EdgeMessage m = new EdgeMessage(edge, seq, topic, payload, qos, retain);
    try {
      bytes = DatagramCodec.encode(m, reliable == null ? 0 : reliable.session(), false);
    } catch (DatagramException e) {
      sequences.merge(topic, -1L, Long::sum); // never sent: no gap for receivers to chase
      counters.drop(e.reason());
      LOG.warning("not forwarded: " + e.getMessage());
      return;
    }
    List<InetSocketAddress> targets = route.get().targets();
    if (reliable != null) {
      // a retained message is sprayed in both modes; otherwise network mode names a group
      boolean group = "network".equals(mode) && !retain;
      reliable.sending(topic, seq, bytes, new LinkedHashSet<>(targets), group);
    }
    send(bytes, targets);
  }

  /** Sends one message datagram to each target. */
  private void send(byte[] bytes, List<InetSocketAddress> targets) {
    for (InetSocketAddress to : targets) {
      if (sendOne(bytes, to)) {
        counters.forwarded.increment();
      }
    }
  }

  /** Sends one datagram; the caller counts it. */
  private boolean sendOne(byte[] bytes, InetSocketAddress to) {
    try {
      link.send(bytes, 0, bytes.length, to);
      return true;
    } catch (IOException e) {
      counters.drop("send_failed");
      LOG.fine("send to " + to + ": " + e);
      return false;
    }
  }

  /** A fault while forwarding that the broker side caught. */
  void failed(String topic, RuntimeException e) {
    counters.drop("agent_error");
    LOG.log(Level.WARNING, "forwarding '" + topic + "'", e);
  }

  private Optional<Route> route(String topic, boolean retain) {
    RouteCache.Key key = new RouteCache.Key(topic, retain);
    synchronized (routes) {
      Optional<Route> hit = routes.get(key);
      if (hit.isPresent()) {
        counters.cacheHits.increment();
        return hit;
      }
    }
    try {
      Route r;
      try {
        r = coordinator.route(topic, edge, retain);
      } catch (CoordinatorClient.CoordinatorException e) {
        if (e.status != 0) {
          throw e;
        }
        r = coordinator.route(topic, edge, retain); // once more: a restarted coordinator
      }
      synchronized (routes) {
        routes.put(key, r);
      }
      return Optional.of(r);
    } catch (CoordinatorClient.CoordinatorException e) {
      LOG.warning("no route for '" + topic + "': " + e.getMessage());
      return Optional.empty();
    } finally {
      counters.routeLookups.increment(); // counted when answered: tests wait on it
    }
  }

  // ---- Agent-Pub (receiver thread) ----

  private void receive() {
    Datagrams.receiveUntil(socket, () -> closed, LOG, agentKeys, this::refused, this::onDatagram);
  }

  /**
   * A datagram refused by the keys: counted; one in a name an own-key agent holds no key of may be
   * from a sender registered since the last refresh, so it asks for one early (rate-limited).
   */
  private void refused() {
    String why = agentKeys.refusal();
    counters.drop(why);
    if (ownKeys != null && "origin_key_unknown".equals(why)) {
      ownKeys.soon();
    }
  }

  /** One datagram from another edge: a control datagram, or a message to publish locally. */
  private void onDatagram(DatagramPacket p) {
    if (RepairCodec.isRepair(p.getData(), p.getOffset(), p.getLength())) {
      onControl(p);
      return;
    }
    DatagramCodec.Datagram d;
    try {
      d = DatagramCodec.decodeDatagram(p.getData(), p.getOffset(), p.getLength());
    } catch (DatagramException e) {
      counters.received.increment();
      counters.drop(e.reason());
      return;
    } catch (RuntimeException e) {
      counters.received.increment();
      counters.drop("malformed"); // never expected: the codec throws only DatagramException
      return;
    }
    EdgeMessage m = d.message();
    if (d.replay()) { // counted apart from live traffic: replayed_received, replay_*
      if (!m.origin().equals(edge) && replay.replayed(m, d.session())) {
        try {
          local.publish(m);
          counters.reliable("replay_published");
        } catch (Exception e) {
          counters.reliable("replay_publish_failed");
        }
      }
      return;
    }
    counters.received.increment();
    if (m.origin().equals(edge)) {
      counters.drop("own_origin"); // a network group may include its own source
      return;
    }
    if (m.retain()) {
      replay.live(m.topic());
    }
    if (reliable != null && d.session() != 0) {
      reliable.received(m, d.session(), (InetSocketAddress) p.getSocketAddress());
    } else {
      publish(m); // an agent without reliable mode sent it (version 1): as it comes
    }
  }

  private void onControl(DatagramPacket p) {
    Repair r;
    try {
      r = RepairCodec.decode(p.getData(), p.getOffset(), p.getLength());
    } catch (DatagramException e) {
      counters.drop("control_" + e.reason());
      return;
    }
    InetSocketAddress from = (InetSocketAddress) p.getSocketAddress();
    if (r.kind() == RepairCodec.Kind.REPLAY) {
      replay.requested(r, from);
    } else if (r.kind() == RepairCodec.Kind.REPLAY_END) {
      replay.ended(r);
    } else if (reliable == null) {
      counters.drop("not_reliable"); // a reliable agent's NACK or heartbeat; nothing to repair
    } else {
      reliable.control(r, from);
    }
  }

  /** Agent-Pub: publishes one message into the local broker, counting the outcome. */
  private void publish(EdgeMessage m) {
    try {
      local.publish(m);
      counters.published.increment();
    } catch (DatagramException e) {
      counters.drop(e.reason()); // the payload is not what the broker side expects
    } catch (Exception e) {
      counters.drop("publish_failed");
      LOG.fine("publish '" + m.topic() + "': " + e);
    }
  }

  // ---- coordinator changes (changes thread) ----

  private void pollChanges() {
    long after;
    synchronized (routes) {
      after = routes.seenVersion();
    }
    while (!closed) {
      try {
        CoordinatorClient.Changes c = coordinator.changes(edge, after, changeWait);
        synchronized (routes) {
          routes.invalidate(c.version(), c.flush(), c.topics());
        }
        if (c.exchanges()) {
          local.exchangesChanged();
        }
        after = Math.max(after, c.version());
      } catch (CoordinatorClient.CoordinatorException e) {
        if (closed) {
          return;
        }
        if (e.status == 404) {
          reRegister();
          synchronized (routes) {
            after = routes.seenVersion();
          }
        } else {
          LOG.fine("change poll: " + e.getMessage());
          pause();
        }
      }
    }
  }

  private void reRegister() {
    if (left || closed) {
      return;
    }
    try {
      register();
      replay.registered();
      refused = false;
      LOG.info("edge " + edge + " registered again at the coordinator");
    } catch (CoordinatorClient.CoordinatorException e) {
      boolean refusal = e.status / 100 == 4;
      if (!refusal || !refused) { // a refusal is logged once, not at every try
        LOG.warning("registering again: " + e.getMessage());
      }
      refused = refusal;
      pause(refusal ? REFUSED_RETRY : RETRY);
    }
  }

  private void pause() {
    pause(RETRY);
  }

  private void pause(Duration d) {
    try {
      Thread.sleep(d); // back-off before asking an unavailable coordinator again
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- what EdgeAgent exposes ----

  AgentStats stats() {
    Map<String, Long> k =
        keys != null ? keys.counters() : ownKeys != null ? ownKeys.counters() : Map.of();
    if (reliable == null) {
      return counters.snapshot(Map.of(), k);
    }
    long[] w = reliable.windowCounts();
    return counters.snapshot(
        Map.of(
            "lost", w[0],
            "recovered", w[1],
            "pending", w[2],
            "heartbeats_pending", (long) reliable.pendingHeartbeats(),
            "unknown", w[3]),
        k);
  }

  /** The datagram keys' holder: senders' keys and revocations are replaced through it. */
  AgentKeys keys() {
    return agentKeys;
  }

  InetSocketAddress datagramAddress() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  String mode() {
    return mode;
  }

  boolean closed() {
    return closed;
  }

  void leave() throws IOException {
    left = true;
    try {
      coordinator.leave(edge);
    } catch (CoordinatorClient.CoordinatorException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** Stops the threads and closes the socket; the broker side closes its connection first. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (reliable != null) {
      reliable.close();
    }
    replay.close();
    if (ownKeys != null) {
      ownKeys.close();
    }
    if (keys != null) {
      keys.close();
    }
    link.close();
    socket.close();
    changes.interrupt();
    reporter.close();
    try {
      if (receiver.isAlive()) {
        receiver.join(2000);
      }
      if (changes.isAlive()) {
        changes.join(2000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
