package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;

/**
 * A cache of one subtree ({@code /topics/<t>} with its containers and endpoint entries, or {@code
 * /brokers}) kept by one persistent recursive watch, for a tree whose nodes at {@code leafDepth}
 * below the root are leaves (ephemeral entries can have no children).
 *
 * <p>Why not Curator's {@code CuratorCache}: it reads every created node's data <i>and</i> its
 * children, two reads per joining endpoint at every broker caching the topic. A persistent
 * recursive watch reports every node created below the root anyway, so after the first load a
 * created or changed node costs one {@code getData} here. Children are listed only when the watch
 * is (re)set — at start and after a reconnect, when events may have been missed — and then only
 * above {@code leafDepth}; a listing also drops the cached nodes that are gone.
 *
 * <p>A node whose data {@code dataWanted} declines is cached without data and costs no read at all:
 * containers, whose existence is all that matters, and endpoint entries whose edge's endpoint the
 * {@code /edges} directory already holds (docs/overlay.md). A declined node's later data changes
 * are not followed.
 *
 * <p>Events and the answers of background reads arrive in order on the client's event thread;
 * {@code onChange} runs there after every change of the cached nodes and must be short.
 */
final class SubtreeCache implements Closeable {
  private static final Logger LOG = Logger.getLogger(SubtreeCache.class.getName());

  private final CuratorFramework client;
  private final String root;
  private final int leafDepth;
  private final Runnable onChange;
  private final BiPredicate<String, Integer> dataWanted; // (path, depth below the root)
  private final PersistentWatcher watcher;
  private final Map<String, ChildData> nodes = new ConcurrentHashMap<>();
  private final CompletableFuture<Void> loaded = new CompletableFuture<>();
  private final AtomicInteger loading = new AtomicInteger(); // a load's reads in flight
  private final AtomicBoolean closed = new AtomicBoolean();

  SubtreeCache(CuratorFramework client, String root, int leafDepth, Runnable onChange) {
    this(client, root, leafDepth, onChange, (path, depth) -> true);
  }

  /**
   * As above, reading the data only of the nodes {@code dataWanted} accepts, given a node's path
   * and its depth below the root (the root, depth 0, is always read).
   */
  SubtreeCache(
      CuratorFramework client,
      String root,
      int leafDepth,
      Runnable onChange,
      BiPredicate<String, Integer> dataWanted) {
    this.client = client;
    this.root = root;
    this.leafDepth = leafDepth;
    this.onChange = onChange;
    this.dataWanted = dataWanted;
    this.watcher = new PersistentWatcher(client, root, true);
    watcher.getListenable().addListener(this::onEvent);
    watcher.getResetListenable().addListener(this::reload);
  }

  void start() {
    watcher.start();
  }

  /** Completes once the first load has read the whole subtree (or when closed before that). */
  CompletableFuture<Void> loaded() {
    return loaded;
  }

  /** The cached nodes now: the root (if it exists) and its descendants (declined: no data). */
  Stream<ChildData> stream() {
    return nodes.values().stream();
  }

  /** True when the cache holds the node at {@code path}. */
  boolean holds(String path) {
    return nodes.containsKey(path);
  }

  private void onEvent(WatchedEvent e) {
    String path = e.getPath();
    if (path == null || closed.get()) {
      return; // a connection event: the watcher resets and reloads on reconnect
    }
    switch (e.getType()) {
      case NodeCreated, NodeDataChanged -> {
        if (wantsData(path, depth(path))) {
          read(path, false);
        } else if (nodes.putIfAbsent(path, new ChildData(path, null, null)) == null) {
          onChange.run();
        }
      }
      case NodeDeleted -> {
        if (removeSubtree(path)) {
          onChange.run();
        }
      }
      default -> {} // a recursive watch sends no child events
    }
  }

  /** Reads the whole subtree again: the watch is new, and events may have been missed. */
  private void reload() {
    read(root, true);
  }

  /** The root's data is always read: only a read tells whether it exists. */
  private boolean wantsData(String path, int depth) {
    return depth == 0 || dataWanted.test(path, depth);
  }

  private int depth(String path) {
    if (path.length() == root.length()) {
      return 0;
    }
    int d = 0;
    for (int i = root.length(); i < path.length(); i++) {
      if (path.charAt(i) == '/') {
        d++;
      }
    }
    return d;
  }

  /**
   * Reads a node's data (if wanted); a {@code load} (after the watch was set) also lists the
   * children of nodes above the leaves and reads them the same way. The first load's reads complete
   * {@link #loaded}. A node listed by its parent whose data is declined is cached without a read.
   */
  private void read(String path, boolean load) {
    if (closed.get()) {
      return;
    }
    int depth = depth(path);
    boolean data = wantsData(path, depth);
    boolean list = load && depth < leafDepth;
    if (load) {
      loading.addAndGet((data ? 1 : 0) + (list ? 1 : 0));
    }
    if (!data && nodes.putIfAbsent(path, new ChildData(path, null, null)) == null) {
      onChange.run();
    }
    try {
      if (data) {
        client.getData().inBackground((c, event) -> onData(path, load, event)).forPath(path);
      }
      if (list) {
        client.getChildren().inBackground((c, event) -> onChildren(path, event)).forPath(path);
      }
    } catch (Exception e) { // only when the client is closed
      LOG.log(Level.FINE, "reading " + path, e);
    }
  }

  private void onData(String path, boolean load, CuratorEvent event) {
    int rc = event.getResultCode();
    boolean changed = false;
    if (rc == KeeperException.Code.OK.intValue()) {
      ChildData d = new ChildData(path, event.getStat(), event.getData());
      ChildData before = nodes.put(path, d);
      changed =
          before == null
              || before.getStat() == null
              || before.getStat().getMzxid() != d.getStat().getMzxid();
    } else if (rc == KeeperException.Code.NONODE.intValue()) {
      changed = removeSubtree(path);
    } // else the connection is gone: the watcher's reset loads again
    done(load, changed);
  }

  private void onChildren(String path, CuratorEvent event) {
    int rc = event.getResultCode();
    boolean changed = false;
    if (rc == KeeperException.Code.OK.intValue()) {
      Set<String> present = new HashSet<>();
      for (String name : event.getChildren()) {
        present.add(path + "/" + name);
      }
      String prefix = path + "/";
      for (String p : List.copyOf(nodes.keySet())) {
        boolean child = p.startsWith(prefix) && p.indexOf('/', prefix.length()) < 0;
        if (child && !present.contains(p)) {
          changed |= removeSubtree(p); // deleted while the watch was away
        }
      }
      present.forEach(p -> read(p, true));
    } else if (rc == KeeperException.Code.NONODE.intValue()) {
      changed = removeSubtree(path);
    }
    done(true, changed);
  }

  private void done(boolean load, boolean changed) {
    if (load && loading.decrementAndGet() == 0) {
      loaded.complete(null); // (a later load keeps the nodes it refreshes visible meanwhile)
    }
    if (changed && !closed.get()) {
      onChange.run();
    }
  }

  private boolean removeSubtree(String path) {
    boolean removed = nodes.remove(path) != null;
    String prefix = path + "/";
    removed |= nodes.keySet().removeIf(p -> p.startsWith(prefix));
    return removed;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      watcher.close();
      loaded.complete(null);
    }
  }
}
