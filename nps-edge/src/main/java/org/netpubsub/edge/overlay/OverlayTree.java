package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.zookeeper.KeeperException;

/**
 * The part of the overlay tree one broker watches (paper Algorithm 1; docs/overlay.md, <i>What each
 * role watches</i>):
 *
 * <ul>
 *   <li><b>topic caches</b>: one {@link SubtreeCache} per topic the broker has business with
 *       ({@link #retainTopics}, {@link #awaitTopic}): the topic's assignment and all its endpoint
 *       entries. An endpoint joining a topic costs reads only at the brokers caching that topic.
 *   <li><b>the topic index</b> (routing brokers; edges with wildcard filters): every topic's
 *       assignment and whether its {@code pub}/{@code sub} containers exist, but not the entries
 *       under them — a depth-limited tree of one-shot watches, so an endpoint joining an existing
 *       topic costs the index nothing. The leader assigns from it, a routing broker finds the
 *       topics assigned to it, a wildcard finds the topics it matches.
 *   <li><b>{@code /brokers}</b> (routing brokers): the live routing brokers.
 * </ul>
 *
 * Each change marks the views stale; one thread rebuilds them (bursts coalesce) and hands {@link
 * #view} (cached topics, brokers) to the listeners, in order, on that thread; {@link #index} is
 * rebuilt with it. Public for nps-bench's {@code JoinBenchmark}, whose edges cache as an edge
 * broker's tree does; the brokers are its only users in production.
 */
// TreeCache is deprecated for CuratorCache, but only TreeCache limits the depth it watches: a
// persistent recursive watch on /topics reports (and re-reads) every endpoint of every topic
@SuppressWarnings("deprecation")
public final class OverlayTree implements Closeable {
  private static final Logger LOG = Logger.getLogger(OverlayTree.class.getName());
  private static final int INDEX_DEPTH = 2; // /topics/<t>/pub|sub, not the entries under them
  private static final int ENTRY_DEPTH = 2; // /topics/<t>/pub|sub/<edge>: ephemeral, so leaves
  private static final int BROKER_DEPTH = 1; // /brokers/<rb>: ephemeral
  private static final int EDGE_DEPTH = 1; // /edges/<edge>: ephemeral
  // A rebuild costs time in the number of topics (a routing broker's view and index, and what its
  // listeners do with them), so during a burst of joins rebuilding after every change took a third
  // of the machine: a change within this gap of the last rebuild waits for the gap to pass, and
  // everything that arrives meanwhile goes into that one rebuild. An isolated change is rebuilt at
  // once.
  private static final long MIN_REBUILD_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final CuratorFramework client;
  private final String owner;
  private final SubtreeCache brokers; // null at edges
  private final SubtreeCache directory; // /edges: each edge's endpoint
  private volatile Map<String, Endpoint> edges = Map.of(); // the directory, parsed
  private volatile int malformedEdges;
  private final java.util.concurrent.ScheduledExecutorService updater;
  private volatile long lastRebuild = System.nanoTime() - MIN_REBUILD_GAP_NANOS;
  private final AtomicBoolean stale = new AtomicBoolean();
  private final List<Consumer<OverlayView>> listeners = new CopyOnWriteArrayList<>();
  private final Object lock = new Object(); // guards changes of topics, and index
  // concurrent so that holds() reads it without the lock, which a rebuild holds for a while
  private final Map<String, TopicCache> topics = new java.util.concurrent.ConcurrentHashMap<>();
  private org.apache.curator.framework.recipes.cache.TreeCache index;
  private volatile OverlayView view = OverlayView.EMPTY;
  private volatile OverlayView indexView = OverlayView.EMPTY;
  private volatile boolean closed;

  /** One topic's cache; its part of the view is re-parsed only when it changed. */
  private static final class TopicCache {
    SubtreeCache cache; // set once, before it starts
    // completed once the cache has loaded, or when it is dropped before that
    final java.util.concurrent.CompletableFuture<Void> loaded =
        new java.util.concurrent.CompletableFuture<>();
  }

  // the cached topics' parts by topic, re-parsed for the topics whose caches changed
  private final MergedTopics cachedParts = new MergedTopics(); // the updater's
  private final Set<String> topicsDirty = java.util.concurrent.ConcurrentHashMap.newKeySet();
  // the index's parts by (raw) topic name, re-parsed for the names its events touched
  private final MergedTopics indexParts = new MergedTopics(); // the updater's
  private final Set<String> indexDirty = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final AtomicBoolean indexAllDirty = new AtomicBoolean(true);

  /**
   * Makes the tree's persistent roots ({@code /topics}, {@code /brokers}, {@code /edges}) unless
   * another broker did: every broker does at start, before its {@link EntryWriter} sends the
   * container creates that need them.
   */
  static void makeRoots(CuratorFramework client) throws Exception {
    for (String root : List.of(ZnodePaths.TOPICS, ZnodePaths.BROKERS, ZnodePaths.EDGES)) {
      try {
        client.create().creatingParentsIfNeeded().forPath(root);
      } catch (KeeperException.NodeExistsException e) {
        // another broker made it
      }
    }
  }

  /** {@code routing}: also watch {@code /brokers} and the topic index (routing brokers). */
  public OverlayTree(CuratorFramework client, String owner, boolean routing) throws Exception {
    makeRoots(client);
    this.client = client;
    this.owner = owner;
    this.updater =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("nps-overlay-tree-" + owner).factory());
    this.brokers =
        routing ? new SubtreeCache(client, ZnodePaths.BROKERS, BROKER_DEPTH, this::changed) : null;
    if (routing) {
      synchronized (lock) {
        index = newIndex();
      }
    }
    this.directory = new SubtreeCache(client, ZnodePaths.EDGES, EDGE_DEPTH, this::directoryChanged);
    directory.start(); // before any topic cache: entries of known edges are not read
  }

  /** On the client's event thread: parses the directory and has every topic re-parsed. */
  private void directoryChanged() {
    Map<String, Endpoint> parsed = new HashMap<>();
    int bad = 0;
    for (ChildData d : directory.stream().toList()) {
      String name = d.getPath().substring(ZnodePaths.EDGES.length());
      if (name.isEmpty()) {
        continue; // the root
      }
      try {
        parsed.put(ZnodePaths.checkName(name.substring(1)), ZnodeData.endpoint(d.getData()));
      } catch (IllegalArgumentException e) {
        bad++;
      }
    }
    edges = Map.copyOf(parsed);
    malformedEdges = bad;
    synchronized (lock) {
      topicsDirty.addAll(topics.keySet());
    }
    changed();
  }

  /**
   * Whether a topic cache reads a node's data below the topic node (whose assignment it always
   * reads): never a container's (depth 1); an endpoint entry's while the directory does not know
   * its edge, and at edges every subscriber entry's (its readers' deadline, which selects the
   * direct path at the publishing edges; routing brokers need none).
   */
  private boolean dataWanted(String path, int depth) {
    return depth > 1
        && (!edges.containsKey(path.substring(path.lastIndexOf('/') + 1))
            || brokers == null
                && path.substring(0, path.lastIndexOf('/')).endsWith("/" + ZnodePaths.SUB));
  }

  /**
   * True when a topic cache holds the node at {@code path} (below {@code /topics/<t>}); false for a
   * topic not cached. What an edge's entry writer asks before creating a container.
   */
  public boolean holds(String path) {
    String[] parts = path.split("/", 4);
    if (parts.length < 3 || !ZnodePaths.TOPICS.equals("/" + parts[1])) {
      return false;
    }
    TopicCache c = ZnodePaths.topicOf(parts[2]).map(topics::get).orElse(null);
    return c != null && c.cache.holds(path);
  }

  /** The edges whose endpoints the directory holds. */
  public Set<String> knownEdges() {
    return edges.keySet();
  }

  void addListener(Consumer<OverlayView> l) {
    listeners.add(l);
  }

  /**
   * Waits for the directory and starts the {@code /brokers} cache and the index (routing brokers),
   * waiting for them too.
   */
  void start(long timeoutMillis) throws Exception {
    try {
      directory.loaded().get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(
          "the edge directory did not load in " + timeoutMillis + " ms");
    }
    if (brokers == null) {
      changed();
      return;
    }
    CountDownLatch ready = new CountDownLatch(2);
    brokers.loaded().thenRun(ready::countDown);
    index
        .getListenable()
        .addListener(
            (c, e) -> {
              if (e.getType()
                  == org.apache.curator.framework.recipes.cache.TreeCacheEvent.Type.INITIALIZED) {
                ready.countDown();
              }
            });
    brokers.start();
    index.start();
    if (!ready.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("the overlay tree did not load in " + timeoutMillis + " ms");
    }
  }

  /** The cached topics (with their entries) and, at routing brokers, the live brokers. */
  public OverlayView view() {
    return view;
  }

  /** The topic index: every topic's assignment and containers, no entries; and the brokers. */
  OverlayView index() {
    return indexView;
  }

  /** Rebuilds and notifies now (periodic work such as publisher idle expiry). */
  void touch() {
    changed();
  }

  /** Turns the topic index on or off (an edge needs it while it has wildcard filters). */
  void indexTopics(boolean on) throws Exception {
    synchronized (lock) {
      if (closed || on == (index != null)) {
        return;
      }
      if (on) {
        index = newIndex();
        indexAllDirty.set(true);
        index.start();
      } else {
        index.close();
        index = null;
      }
    }
    changed();
  }

  private org.apache.curator.framework.recipes.cache.TreeCache newIndex() {
    var t =
        org.apache.curator.framework.recipes.cache.TreeCache.newBuilder(client, ZnodePaths.TOPICS)
            .setMaxDepth(INDEX_DEPTH)
            .setExecutor(Thread.ofPlatform().daemon().name("nps-overlay-index-" + owner).factory())
            .build();
    t.getListenable()
        .addListener(
            (c, e) -> {
              String[] parts =
                  e.getData() == null ? new String[0] : e.getData().getPath().split("/");
              if (parts.length >= 3) { // /topics/<t>...
                indexDirty.add(parts[2]);
              } else {
                indexAllDirty.set(true); // the root, or a connection event
              }
              changed();
            });
    return t;
  }

  /**
   * Caches exactly the topics {@code wanted} names, evaluated under the lock {@link #awaitTopic}
   * and {@link #whenLoaded} take: a topic a caller started to wait for before is in the set it
   * computes, or its cache is started after.
   */
  public void retainTopics(Supplier<Set<String>> wanted) {
    boolean changed = false;
    synchronized (lock) {
      if (closed) {
        return;
      }
      Set<String> keep = wanted.get();
      for (var it = topics.entrySet().iterator(); it.hasNext(); ) {
        var e = it.next();
        if (!keep.contains(e.getKey())) {
          e.getValue().cache.close(); // completes loaded
          it.remove();
          topicsDirty.add(e.getKey());
          changed = true;
        }
      }
      for (String t : keep) {
        if (!topics.containsKey(t)) {
          cache(t);
          changed = true;
        }
      }
    }
    if (changed) {
      changed();
    }
  }

  /**
   * The topic as its cache holds it, caching it first if needed (until the next {@link
   * #retainTopics} leaves it out) and waiting up to {@code timeoutMillis} for the cache to load;
   * empty when the topic does not exist (or did not load in time). For the first message of a topic
   * a broker has not cached: the decision needs the topic's entries, which the view may not show
   * yet.
   */
  Optional<TopicState> awaitTopic(String topic, long timeoutMillis) throws InterruptedException {
    TopicCache c;
    synchronized (lock) {
      if (closed) {
        return Optional.empty();
      }
      c = topics.get(topic);
      if (c == null) {
        c = cache(topic);
      }
    }
    try {
      c.loaded.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      return Optional.empty();
    }
    return parse(c.cache, edges).topic(topic);
  }

  /**
   * The topic as its cache holds it now, if the cache has loaded; empty if not cached, not loaded
   * yet, or the topic does not exist.
   */
  Optional<TopicState> loadedTopic(String topic) {
    TopicCache c;
    synchronized (lock) {
      c = topics.get(topic);
    }
    return c != null && c.loaded.isDone() ? parse(c.cache, edges).topic(topic) : Optional.empty();
  }

  /**
   * Caches the topic if needed (until the next {@link #retainTopics} leaves it out) and runs {@code
   * onLoaded} on {@code executor} once its cache has loaded (or was dropped first). Returns false,
   * running nothing, when the cache has loaded already. For a first message that must not block its
   * thread while the topic loads.
   */
  boolean whenLoaded(String topic, java.util.concurrent.Executor executor, Runnable onLoaded) {
    TopicCache c;
    synchronized (lock) {
      if (closed) {
        return false;
      }
      c = topics.get(topic);
      if (c == null) {
        c = cache(topic);
      }
    }
    if (c.loaded.isDone()) {
      return false;
    }
    c.loaded.thenRunAsync(onLoaded, executor);
    return true;
  }

  private TopicCache cache(String topic) {
    TopicCache c = new TopicCache();
    c.cache =
        new SubtreeCache(
            client,
            ZnodePaths.topic(topic),
            ENTRY_DEPTH,
            () -> {
              topicsDirty.add(topic);
              changed();
            },
            this::dataWanted);
    c.cache
        .loaded()
        .thenRun(
            () -> {
              topicsDirty.add(topic);
              c.loaded.complete(null);
              changed();
            });
    topics.put(topic, c);
    c.cache.start();
    return c;
  }

  private void changed() {
    if (stale.compareAndSet(false, true)) {
      try {
        long wait = lastRebuild + MIN_REBUILD_GAP_NANOS - System.nanoTime();
        updater.schedule(this::rebuild, Math.max(0, wait), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closing
      }
    }
  }

  private static void collect(
      SubtreeCache c, Map<String, byte[]> nodes, Map<String, Integer> versions) {
    c.stream()
        .forEach(
            (ChildData d) -> {
              nodes.put(d.getPath(), d.getData());
              versions.put(d.getPath(), d.getStat() != null ? d.getStat().getVersion() : -1);
            });
  }

  private void rebuild() {
    lastRebuild = System.nanoTime();
    stale.set(false);
    Map<String, byte[]> brokerNodes = new HashMap<>();
    Map<String, Integer> versions = new HashMap<>();
    if (brokers != null) {
      collect(brokers, brokerNodes, versions);
    }
    OverlayView live = OverlayView.of(brokerNodes, p -> versions.getOrDefault(p, -1));
    OverlayView brokerPart = // with the directory's malformed records
        new OverlayView(
            new java.util.TreeMap<>(), live.brokers(), live.malformed() + malformedEdges);
    synchronized (lock) {
      for (var it = topicsDirty.iterator(); it.hasNext(); ) {
        String topic = it.next();
        it.remove(); // before reading: a change from now on marks it again
        TopicCache c = topics.get(topic);
        if (c != null && c.loaded.isDone()) {
          cachedParts.put(topic, parse(c.cache, edges));
        } else {
          // dropped, or half loaded: a topic may show its node without its entries, not yet
          cachedParts.remove(topic);
        }
      }
      if (index == null) {
        indexParts.retain(Set.of());
      } else {
        refreshIndexParts();
      }
    }
    OverlayView v = cachedParts.view(brokerPart);
    indexView = indexParts.view(brokerPart);
    view = v;
    for (Consumer<OverlayView> l : listeners) {
      try {
        l.accept(v);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "overlay listener", e);
      }
    }
  }

  /** Re-parses the index's topics its events touched (all of them after a root event). */
  private void refreshIndexParts() {
    Set<String> names;
    if (indexAllDirty.getAndSet(false)) {
      indexDirty.clear();
      Map<String, ChildData> children = index.getCurrentChildren(ZnodePaths.TOPICS);
      names = children == null ? Set.of() : children.keySet();
      indexParts.retain(names);
    } else {
      names = new HashSet<>();
      for (var it = indexDirty.iterator(); it.hasNext(); ) {
        names.add(it.next());
        it.remove();
      }
    }
    for (String name : names) {
      Map<String, byte[]> nodes = new HashMap<>();
      Map<String, Integer> versions = new HashMap<>();
      String path = ZnodePaths.TOPICS + "/" + name;
      ChildData d = index.getCurrentData(path);
      if (d == null) {
        indexParts.remove(name);
        continue;
      }
      nodes.put(path, d.getData());
      versions.put(path, d.getStat() != null ? d.getStat().getVersion() : -1);
      collectIndex(index, path, nodes, versions);
      indexParts.put(name, OverlayView.of(nodes, p -> versions.getOrDefault(p, -1)));
    }
  }

  /** A topic cache's part; entries cached without data are the directory's endpoints. */
  private static OverlayView parse(SubtreeCache c, Map<String, Endpoint> directory) {
    Map<String, byte[]> nodes = new HashMap<>();
    Map<String, Integer> versions = new HashMap<>();
    collect(c, nodes, versions);
    return OverlayView.of(nodes, p -> versions.getOrDefault(p, -1), directory::get);
  }

  private static void collectIndex(
      org.apache.curator.framework.recipes.cache.TreeCache t,
      String path,
      Map<String, byte[]> nodes,
      Map<String, Integer> versions) {
    Map<String, ChildData> children = t.getCurrentChildren(path);
    if (children == null) {
      return;
    }
    for (Map.Entry<String, ChildData> c : children.entrySet()) {
      String p = path + "/" + c.getKey();
      ChildData d = c.getValue();
      nodes.put(p, d.getData());
      versions.put(p, d.getStat() != null ? d.getStat().getVersion() : -1);
      collectIndex(t, p, nodes, versions);
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      topics.values().forEach(c -> c.cache.close());
      topics.clear();
      if (index != null) {
        index.close();
        index = null;
      }
    }
    if (brokers != null) {
      brokers.close();
    }
    directory.close();
    updater.shutdownNow();
  }
}
