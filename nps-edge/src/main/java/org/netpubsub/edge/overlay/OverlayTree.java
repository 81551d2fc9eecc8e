package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;

/**
 * The overlay tree as every broker watches it: one {@link CuratorCache} on {@code /topics} and one
 * on {@code /brokers}. Each change marks the view stale; one thread rebuilds it (bursts of events
 * coalesce into one rebuild) and hands it to the listeners, in order, on that thread.
 */
final class OverlayTree implements Closeable {
  private static final Logger LOG = Logger.getLogger(OverlayTree.class.getName());

  private final CuratorCache topics;
  private final CuratorCache brokers;
  private final ExecutorService updater;
  private final AtomicBoolean stale = new AtomicBoolean();
  private final List<Consumer<OverlayView>> listeners = new CopyOnWriteArrayList<>();
  private final CountDownLatch initialized = new CountDownLatch(2);
  private volatile OverlayView view = OverlayView.EMPTY;

  OverlayTree(CuratorFramework client, String owner) throws Exception {
    for (String root : List.of(ZnodePaths.TOPICS, ZnodePaths.BROKERS)) {
      try {
        client.create().creatingParentsIfNeeded().forPath(root);
      } catch (KeeperException.NodeExistsException e) {
        // another broker made it
      }
    }
    this.updater =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("nps-overlay-tree-" + owner).factory());
    this.topics = CuratorCache.build(client, ZnodePaths.TOPICS);
    this.brokers = CuratorCache.build(client, ZnodePaths.BROKERS);
    for (CuratorCache c : List.of(topics, brokers)) {
      c.listenable()
          .addListener(
              CuratorCacheListener.builder()
                  .forAll((type, before, after) -> changed())
                  .forInitialized(
                      () -> {
                        initialized.countDown();
                        changed();
                      })
                  .build());
    }
  }

  void addListener(Consumer<OverlayView> l) {
    listeners.add(l);
  }

  void start(long timeoutMillis) throws InterruptedException {
    topics.start();
    brokers.start();
    if (!initialized.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("the overlay tree did not load in " + timeoutMillis + " ms");
    }
  }

  OverlayView view() {
    return view;
  }

  /** Rebuilds and notifies now (periodic work such as publisher idle expiry). */
  void touch() {
    changed();
  }

  private void changed() {
    if (stale.compareAndSet(false, true)) {
      try {
        updater.execute(this::rebuild);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closing
      }
    }
  }

  private void rebuild() {
    stale.set(false);
    Map<String, byte[]> nodes = new HashMap<>();
    Map<String, Integer> versions = new HashMap<>();
    for (CuratorCache c : List.of(topics, brokers)) {
      c.stream()
          .forEach(
              (ChildData d) -> {
                nodes.put(d.getPath(), d.getData());
                versions.put(d.getPath(), d.getStat() != null ? d.getStat().getVersion() : -1);
              });
    }
    OverlayView v = OverlayView.of(nodes, p -> versions.getOrDefault(p, -1));
    view = v;
    for (Consumer<OverlayView> l : listeners) {
      try {
        l.accept(v);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "overlay listener", e);
      }
    }
  }

  @Override
  public void close() {
    topics.close();
    brokers.close();
    updater.shutdownNow();
  }
}
