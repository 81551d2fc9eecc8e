package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.DatagramException;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.dds.DdsDomain;
import org.netpubsub.edge.link.DatagramLink;
import org.netpubsub.edge.link.Datagrams;

/**
 * An overlay edge broker (paper §2.2, §2.6.2) in front of an unmodified local MQTT broker or DDS
 * domain ({@link LocalSite}): it learns local subscribers and publishers from the site, holds
 * ephemeral endpoint entries for them (they vanish with its ZooKeeper session), sends messages of
 * global topics to the topic's routing broker (and straight to the subscribed edges for admitted
 * deadline topics), and publishes what arrives locally, dropping duplicates and asking the
 * publishing edge for gaps (NACK).
 *
 * <p>Threads: the site's thread (Paho's callback thread, or the DDS bridge's reader) sends; one
 * thread receives; one scheduled thread keeps the entries in line with {@link EdgeInterest},
 * repeats NACKs and sends a topic's first messages once the topic's cache has loaded (they wait in
 * {@code waiting} meanwhile, so Paho's thread never blocks on ZooKeeper). Shared state is guarded
 * by its own object ({@code interest}, {@code buffer}, {@code windows}, {@code waiting}, {@code
 * ordered}, which publishes locally under its lock); no thread holds two of those locks.
 */
public final class EdgeBroker implements Closeable, LocalSite.Listener {
  private static final Logger LOG = Logger.getLogger(EdgeBroker.class.getName());

  private final EdgeBrokerConfig config;
  private final CuratorFramework client;
  private final DatagramSocket socket;
  private final DatagramLink link;
  private final LocalSite local;
  private final EdgeInterest interest;
  private final SendBuffer buffer;
  private final ReceiveWindows windows =
      new ReceiveWindows(
          EdgeBrokerConfig.MAX_BUFFER,
          OrderedDelivery.RETRY_MILLIS,
          OrderedDelivery.MAX_RETRY_MILLIS,
          OrderedDelivery.TRIES);
  private final OverlayTree tree;
  private final Counters counters = new Counters();
  private final OrderedDelivery ordered = new OrderedDelivery(this::publishLocally, counters);
  private final EndpointEntries entries; // written by the worker thread
  private final OriginSequences sequences = new OriginSequences();
  private final Deadlines deadlines; // --deadline and the site's: direct path, missed deadlines
  // topic -> local messages waiting for its cache to load (guarded by itself)
  private final Map<String, java.util.ArrayDeque<LocalSite.Message>> waiting = new HashMap<>();
  // topic -> remote subscriber edges already served (first message: Paho's thread; then the tree's)
  private final Map<String, Set<String>> remoteSubscribers = new ConcurrentHashMap<>();
  private final NackBudget nackBudget = new NackBudget(4 << 20, 4 << 20, 4096); // guarded by itself
  private final RecentSubscribers recent = new RecentSubscribers(10_000); // guarded by itself
  private final EdgeSeals seals; // which key seals what for whom, and opens what arrives
  private final ScheduledExecutorService worker;
  private final AtomicBoolean syncQueued = new AtomicBoolean();
  private final Thread receiver;
  private volatile boolean closed;

  private EdgeBroker(
      EdgeBrokerConfig config,
      CuratorFramework client,
      DatagramSocket socket,
      java.util.function.Consumer<DeadlineMonitor.Miss> onMiss)
      throws Exception {
    this.config = config;
    this.deadlines = new Deadlines(config.deadlines(), config.maxDirectTopics(), counters, onMiss);
    this.client = client;
    this.socket = socket;
    this.seals = new EdgeSeals(config.auth(), config.name(), config.ownKey());
    this.link = DatagramLink.of(socket, config.emulation(), seals.sealer());
    this.local =
        "dds".equals(config.local().getScheme())
            ? new DdsSite(DdsDomain.parse(config.local()), config.name(), this, counters)
            : new MqttSite(config.local(), "nps-overlay-edge-" + config.name(), this, counters);
    this.interest = new EdgeInterest(config.publisherIdle().toMillis());
    this.buffer = new SendBuffer(config.buffer(), 250, 5);
    this.tree = new OverlayTree(client, config.name(), false);
    Endpoint self = new Endpoint(config.site(), address(), Optional.empty(), seals.ownKeyOnly());
    this.entries = new EndpointEntries(client, config.name(), self, counters, tree::holds);
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("nps-edge-sync-" + config.name()).factory());
    this.receiver =
        Thread.ofPlatform()
            .daemon()
            .name("nps-edge-recv-" + config.name())
            .unstarted(this::receive);
  }

  /** Starts an edge broker on {@code client} (closed with it). */
  public static EdgeBroker start(EdgeBrokerConfig config, CuratorFramework client)
      throws Exception {
    return start(config, client, m -> {});
  }

  /**
   * As above; {@code onMiss} hears of every missed deadline (on the worker or receiver thread): a
   * topic declared with a deadline that arrived from other sites and then fell silent too long.
   */
  public static EdgeBroker start(
      EdgeBrokerConfig config,
      CuratorFramework client,
      java.util.function.Consumer<DeadlineMonitor.Miss> onMiss)
      throws Exception {
    if (config.auth() == null) {
      throw new IllegalArgumentException(
          "datagrams are authenticated: an edge broker needs --datagram-key FILE, or keys in"
              + " ZooKeeper with --zookeeper-auth (or --insecure-datagrams for tests)");
    }
    DatagramSocket socket = new DatagramSocket(null);
    socket.setReceiveBufferSize(4 << 20);
    socket.bind(config.listen());
    EdgeBroker e;
    try {
      e = new EdgeBroker(config, client, socket, onMiss);
    } catch (Exception x) {
      socket.close();
      throw x;
    }
    try {
      e.tree.addListener(e.seals::observe); // first: the others send to the edges it shows
      e.tree.addListener(v -> e.queueSync());
      e.tree.addListener(e::replayToLateJoiners);
      e.tree.addListener(e::observeSubscribers);
      e.tree.addListener(v -> e.deadlines.remote(RemoteDeadlines.of(v, e.config.site())));
      e.tree.start(30_000);
      e.receiver.start();
      e.local.connect();
      e.worker.scheduleWithFixedDelay(e::repeatNacks, 50, 50, TimeUnit.MILLISECONDS);
      e.worker.scheduleWithFixedDelay(e::queueSync, 1, 1, TimeUnit.SECONDS);
      return e;
    } catch (Exception x) {
      e.close();
      throw x;
    }
  }

  public String name() {
    return config.name();
  }

  /** Refuses from now on every message naming one of {@code edges} ({@code revoked_origin}). */
  public void revokeEdges(Set<String> edges) {
    seals.revoke(edges);
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  public Map<String, Long> counters() {
    return counters.snapshot();
  }

  /**
   * CPU time of this edge's own threads so far, in ns (-1 where the JVM cannot tell): its receiver,
   * sync and tree threads and Paho's for its local connection (all named after it); its ZooKeeper
   * client's threads are not told apart. Threads that ended are not counted.
   */
  public long cpuNanos() {
    return Counters.threadCpuNanos("-" + config.name());
  }

  /** The topics this edge caches: those it holds entries for (paper Algorithm 1's scope). */
  public OverlayView view() {
    return tree.view();
  }

  /** The endpoint entries this edge holds now. */
  public Set<EdgeInterest.Entry> entries() {
    return entries.held();
  }

  // ---- the local site (its one thread) ----

  @Override
  public void onSubscriber(String topic, boolean present) {
    synchronized (interest) {
      interest.filter(topic, present);
    }
    queueSync();
  }

  @Override
  public void onPublisher(String topic, boolean present) {
    synchronized (interest) {
      interest.declared(topic, present);
    }
    queueSync();
  }

  @Override
  public void onDeadline(String topic, DeadlineTable.Side side, Long millis) {
    deadlines.set(topic, side, millis);
    queueSync(); // a subscriber entry carries its readers' deadline
  }

  @Override
  public void onMessage(String topic, LocalSite.Message message) {
    counters.add("local_messages");
    boolean fresh;
    synchronized (interest) {
      fresh = interest.published(topic, System.currentTimeMillis());
    }
    if (fresh) {
      queueSync();
    }
    TopicState t;
    synchronized (waiting) {
      java.util.ArrayDeque<LocalSite.Message> q = waiting.get(topic);
      if (q != null) {
        q.add(message); // behind the topic's earlier messages, whatever the view says by now
        return;
      }
      t = tree.view().topics().get(topic);
      // a topic the view does not show (its first message here): its entries decide, so its
      // messages wait, in order, until its cache has loaded (without holding up other topics)
      if (t == null && tree.whenLoaded(topic, worker, () -> releaseWaiting(topic))) {
        waiting.put(topic, new java.util.ArrayDeque<>(List.of(message)));
        return;
      }
    }
    if (t == null) {
      t = tree.loadedTopic(topic).orElse(null); // loaded, the view not rebuilt yet
    }
    send(topic, message, t);
  }

  /** The messages that waited for their topic's cache, in order (worker thread). */
  private void releaseWaiting(String topic) {
    while (true) {
      LocalSite.Message m;
      synchronized (waiting) {
        java.util.ArrayDeque<LocalSite.Message> q = waiting.get(topic);
        m = q == null ? null : q.poll();
        if (m == null) {
          waiting.remove(topic); // from now on onMessage sends directly
          return;
        }
      }
      counters.add("waited_for_topic");
      send(topic, m, tree.loadedTopic(topic).orElse(null));
    }
  }

  /**
   * Sends one local message where the topic's entries say (Paho's thread, or the worker's for
   * messages that waited for their topic; never both for one topic at once).
   */
  private void send(String topic, LocalSite.Message message, TopicState t) {
    boolean global = t != null && Relay.isGlobal(t, config.site());
    if (!global && (durable(topic) == 0 || message.qos() == 0)) {
      counters.add("kept_local"); // local topics never leave the site
      return;
    }
    long seq = sequences.next(topic);
    EdgeMessage m =
        new EdgeMessage(
            config.name(), seq, topic, message.payload(), message.qos(), message.retained());
    byte[] bytes;
    try {
      bytes = DatagramCodec.encode(m, sequences.session(), false);
    } catch (DatagramException e) {
      counters.drop(e.reason());
      return;
    }
    if (m.qos() >= 1) {
      synchronized (buffer) {
        if (global) {
          buffer.put(topic, seq, bytes, System.currentTimeMillis());
        } else {
          buffer.keep(topic, seq, bytes);
        }
      }
      if (durable(topic) > 0) {
        remoteSubscribers.putIfAbsent(topic, remoteSubscriberEdges(t).keySet());
      }
    }
    if (!global) {
      counters.add("kept_local"); // buffered for late joiners only
      return;
    }
    boolean multiPath = deadlines.admit(topic);
    if (t.assignment().isPresent()) {
      send(bytes, t.assignment().get().address(), "sent_to_broker");
    } else if (!multiPath) {
      counters.drop("unassigned"); // the leader has not assigned it yet; NACKs may recover it
    }
    if (multiPath) {
      seals.learn(t); // the topic as loaded may show edges the view does not yet
      for (Endpoint e : Relay.targets(t, config.name())) {
        send(bytes, e.address(), "sent_direct");
      }
    }
  }

  private void send(byte[] bytes, InetSocketAddress to, String counter) {
    try {
      link.send(bytes, 0, bytes.length, to);
      counters.add(counter);
    } catch (IOException e) {
      counters.drop("send_failed");
    }
  }

  // ---- arriving datagrams (receiver thread) ----

  private void receive() {
    Datagrams.receiveUntil(
        socket, () -> closed, LOG, seals, () -> counters.drop(seals.refusal()), this::onDatagram);
  }

  /** One datagram: a NACK to answer, or a message to publish locally. */
  private void onDatagram(DatagramPacket p) {
    counters.add("received");
    if (NackCodec.isNack(p.getData(), p.getOffset(), p.getLength())) {
      onNack(p);
      return;
    }
    DatagramCodec.Datagram d;
    try {
      d = DatagramCodec.decodeDatagram(p.getData(), p.getOffset(), p.getLength());
    } catch (DatagramException e) {
      counters.drop(e.reason());
      return;
    }
    EdgeMessage m = d.message();
    if (m.origin().equals(config.name())) {
      counters.drop("own_origin");
      return;
    }
    List<ReceiveWindows.Nack> nacks = new ArrayList<>();
    ReceiveWindows.Verdict v;
    synchronized (windows) {
      long now = System.currentTimeMillis();
      v = windows.accept(m.origin(), m.topic(), d.session(), m.sequence(), now, nacks);
    }
    nacks.forEach(this::sendNack);
    if (v == ReceiveWindows.Verdict.DUPLICATE) {
      counters.drop("duplicate");
      return;
    }
    if (v == ReceiveWindows.Verdict.RECOVERED) {
      counters.add("recovered");
    }
    long now = System.currentTimeMillis();
    deadlines.observe(m.topic(), now);
    ordered.offer(m, d.session(), now); // a reliable message after a gap waits for its repair
  }

  private void publishLocally(EdgeMessage m) {
    try {
      local.publish(m);
      counters.add("published");
    } catch (Exception e) {
      counters.drop("publish_failed");
    }
  }

  private void onNack(DatagramPacket p) {
    ReceiveWindows.Nack n;
    try {
      n = NackCodec.decode(p.getData(), p.getOffset(), p.getLength(), config.name());
    } catch (DatagramException e) {
      counters.drop("nack_" + e.reason());
      return;
    }
    counters.add("nacks_received");
    InetSocketAddress from = (InetSocketAddress) p.getSocketAddress();
    Optional<String> asker = NackBudget.asker(tree.view().topics().get(n.topic()), from, name());
    if (asker.isEmpty()) {
      synchronized (recent) {
        asker = recent.asker(n.topic(), from, name(), System.currentTimeMillis());
      }
      if (asker.isEmpty()) {
        counters.drop("nack_not_subscriber"); // answered only to a subscribed edge's own address
        return;
      }
      counters.add("nacks_from_recent_subscriber");
    }
    for (long s = n.from(); s <= n.to(); s++) {
      Optional<byte[]> d;
      synchronized (buffer) {
        d = buffer.get(n.topic(), s);
      }
      if (d.isEmpty()) {
        continue;
      }
      if (!spend(asker.get(), d.get().length)) {
        counters.drop("nack_over_budget");
        return;
      }
      send(d.get(), from, "retransmitted");
    }
  }

  private void observeSubscribers(OverlayView v) {
    synchronized (recent) {
      recent.observe(v, System.currentTimeMillis());
    }
  }

  private boolean spend(String edge, int bytes) {
    synchronized (nackBudget) {
      return nackBudget.take(edge, bytes, System.currentTimeMillis());
    }
  }

  private void sendNack(ReceiveWindows.Nack n) {
    TopicState t = tree.view().topics().get(n.topic());
    Endpoint origin = t == null ? null : t.publishers().get(n.origin());
    if (origin == null) {
      counters.drop("nack_unknown_origin");
      return;
    }
    send(NackCodec.encode(n), origin.address(), "nacks_sent");
  }

  private void repeatNacks() {
    long now = System.currentTimeMillis();
    deadlines.overdue(now);
    List<ReceiveWindows.Nack> due;
    synchronized (windows) {
      due = windows.due(now);
    }
    due.forEach(this::sendNack);
    ordered.due(now);
    List<SendBuffer.Probe> probes;
    synchronized (buffer) {
      probes = buffer.probes(now);
    }
    for (SendBuffer.Probe p : probes) {
      TopicState t = tree.view().topics().get(p.topic());
      if (t != null && Relay.isGlobal(t, config.site())) {
        t.assignment().ifPresent(a -> send(p.datagram(), a.address(), "tail_probes"));
        if (deadlines.admitted(p.topic())) {
          Relay.targets(t, config.name())
              .forEach(e -> send(p.datagram(), e.address(), "tail_probes"));
        }
      }
    }
  }

  // ---- durability (the tree's thread) ----

  /**
   * Sends the last {@link #durable} reliable messages of each topic this edge publishes to every
   * subscriber edge of another site that appeared since the previous view. The first view of a
   * topic replays nothing (those subscribers received the messages live).
   */
  private void replayToLateJoiners(OverlayView view) {
    Set<String> topics;
    synchronized (buffer) {
      topics = buffer.topics();
    }
    for (String topic : topics) {
      int depth = durable(topic);
      if (depth == 0) {
        continue;
      }
      Map<String, Endpoint> now = remoteSubscriberEdges(view.topics().get(topic));
      Set<String> before = remoteSubscribers.put(topic, now.keySet());
      if (before == null) {
        continue;
      }
      List<byte[]> history;
      synchronized (buffer) {
        history = buffer.last(topic, depth);
      }
      for (Map.Entry<String, Endpoint> e : now.entrySet()) {
        if (!before.contains(e.getKey())) {
          history.forEach(d -> send(d, e.getValue().address(), "replayed"));
        }
      }
    }
  }

  /** How many of a topic's last reliable messages a late joiner gets: --durable or the site's. */
  private int durable(String topic) {
    return Math.min(config.buffer(), Math.max(config.durable(), local.durableDepth(topic)));
  }

  private Map<String, Endpoint> remoteSubscriberEdges(TopicState t) {
    Map<String, Endpoint> out = new HashMap<>();
    if (t != null) {
      for (Map.Entry<String, Endpoint> e : t.subscribers().entrySet()) {
        if (!e.getValue().site().equals(config.site())) {
          out.put(e.getKey(), e.getValue());
        }
      }
    }
    return out;
  }

  // ---- endpoint entries (worker thread) ----

  private void queueSync() {
    if (!closed && syncQueued.compareAndSet(false, true)) {
      try {
        worker.execute(this::sync);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        syncQueued.set(false);
      }
    }
  }

  private void sync() {
    syncQueued.set(false);
    if (closed) {
      return;
    }
    Set<EdgeInterest.Entry> desired;
    boolean wildcards;
    synchronized (interest) {
      desired = interest.desired(tree.index(), System.currentTimeMillis());
      wildcards = interest.hasWildcards();
    }
    try {
      tree.indexTopics(wildcards || local.needsIndex());
    } catch (Exception e) {
      LOG.log(Level.WARNING, "topic index", e);
    }
    // cache the topics of this edge's entries, and any it began to publish since desired()
    tree.retainTopics(
        () -> {
          Set<String> topics = new HashSet<>();
          desired.forEach(e -> topics.add(e.topic()));
          synchronized (interest) {
            topics.addAll(interest.publishedTopics());
          }
          return topics;
        });
    entries.keep(desired, deadlines::received);
    if (local.needsIndex()) {
      Set<String> own = new HashSet<>();
      desired.forEach(e -> own.add(e.topic()));
      local.checkTree(tree.index().topics().keySet(), own);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    local.close();
    link.close();
    socket.close();
    if (!client.getZookeeperClient().isConnected()) {
      // the entries go with the session; deleting them now would wait out the retries
      worker.shutdownNow();
      entries.close();
      tree.close();
      client.close();
      return;
    }
    worker.shutdownNow();
    try {
      worker.awaitTermination(2, TimeUnit.SECONDS); // a sync under way finishes first
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    entries.deleteAll(5000);
    tree.close();
    client.close();
    try {
      receiver.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
