package org.netpubsub.controller.controlplane;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.Watcher;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.Advertisement;
import org.netpubsub.network.pleroma.ConfigurationDelta;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.Subscription;
import org.netpubsub.network.topology.Topology;

/**
 * Serves one partition while this process owns it: lock, take over, drain the queue; take over
 * again on the new topology whenever it changes.
 */
final class PartitionServer {
  private static final System.Logger LOG = System.getLogger(PartitionServer.class.getName());

  private final ClusterControlPlane cluster;
  final Dz partition;
  final Thread thread;
  final InterProcessMutex lock;
  final Semaphore queueChanged = new Semaphore(0);
  volatile boolean active = true;
  volatile boolean holding;
  volatile boolean release = true;
  Configurator config; // guarded by this: the loop reads it through flows()
  long version; // the topology version config is built on
  Topology builtOn = Topology.EMPTY; // that topology: whether it knows a host is what counts
  long hostWaitStart; // nanoTime the part at the head began to wait for its host; 0: none

  PartitionServer(ClusterControlPlane cluster, Dz partition) {
    this.cluster = cluster;
    this.partition = partition;
    this.lock = new InterProcessMutex(cluster.zk, cluster.layout.lock(partition));
    this.thread = new Thread(this::run, "partition-" + ClusterLayout.name(partition));
    thread.setDaemon(true);
  }

  /** This partition's flows on one switch, once taken over (empty before). */
  synchronized List<FlowEntry> flows(long dpid) {
    return config == null || !holding ? List.of() : config.flows(dpid);
  }

  void stop(boolean releaseLock) {
    release = releaseLock;
    active = false;
    queueChanged.release();
    if (!releaseLock) {
      thread.interrupt();
    }
  }

  /**
   * Lock, take over, serve; after any failure (a lost connection mid-transaction, say) start over
   * from ZooKeeper's state, which the takeover makes the switches agree with.
   */
  private void run() {
    while (active) {
      try {
        while (active && !lock.acquire(200, TimeUnit.MILLISECONDS)) {
          // the previous owner is finishing its current part, or its session has yet to expire
        }
        if (active) {
          holding = true;
          rebuild();
          cluster.takeovers.incrementAndGet();
          cluster.notifyServingChanged();
          while (active) {
            if (version != cluster.topology.version()) {
              rebuild(); // a topology change: the same rebuild and resync, on the new tree
              cluster.rebuilds.incrementAndGet();
            }
            serveQueue();
          }
        }
      } catch (InterruptedException e) {
        return; // halted
      } catch (Exception e) {
        if (cluster.zk.getState() == CuratorFrameworkState.STOPPED) {
          active = false; // the client is closed: nothing to start over with
        } else if (active) {
          LOG.log(System.Logger.Level.WARNING, "partition " + partition + ": starting over", e);
          backOff();
        }
      } finally {
        boolean served;
        synchronized (this) {
          served = config != null && holding;
          holding = false;
          config = null;
        }
        if (served) {
          cluster.notifyServingChanged();
        }
        if (release && lock.isAcquiredInThisProcess()) {
          try {
            lock.release();
          } catch (Exception e) {
            LOG.log(System.Logger.Level.DEBUG, "releasing " + partition, e);
          }
        }
      }
    }
  }

  /** A pause before starting over, so that a ZooKeeper outage is not a busy loop. */
  private void backOff() {
    try {
      queueChanged.tryAcquire(200, TimeUnit.MILLISECONDS); // stop() cuts it short
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      active = false;
    }
  }

  /**
   * Rebuilds the CP-config from the standing requests on the current topology (every path
   * re-embedded) and brings every switch's flows of this partition in line.
   */
  private void rebuild() throws Exception {
    ClusterControlPlane.Versioned current = cluster.topology;
    version = current.version();
    builtOn = current.topology();
    List<Advertisement> ads = new ArrayList<>();
    List<Subscription> subs = new ArrayList<>();
    for (String id : cluster.zk.getChildren().forPath(cluster.layout.standing(partition))) {
      ControlRequest r =
          RequestCodec.decode(cluster.zk.getData().forPath(cluster.layout.standing(partition, id)));
      if (r.kind().isSubscription()) {
        subs.add(r.subscription());
      } else {
        ads.add(r.advertisement());
      }
    }
    Configurator rebuilt = Configurator.restored(current.topology(), ads, subs);
    synchronized (this) {
      config = rebuilt;
    }
    List<CompletableFuture<Void>> acks = new ArrayList<>();
    for (long dpid : current.topology().switches()) {
      acks.add(cluster.updates.resync(dpid, ControlPlane.owned(partition), rebuilt.flows(dpid)));
    }
    for (CompletableFuture<Void> a : acks) {
      a.get(cluster.ackTimeout.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  /** Processes the queue's parts in order; waits for more when it is empty. */
  private void serveQueue() throws Exception {
    List<String> nodes =
        cluster
            .zk
            .getChildren()
            .usingWatcher((Watcher) e -> queueChanged.release())
            .forPath(cluster.layout.queue(partition));
    if (nodes.isEmpty()) {
      queueChanged.tryAcquire(1, TimeUnit.SECONDS); // the timeout is a backstop
      return;
    }
    nodes.sort(null); // r-<10-digit sequence>: name order is queue order
    for (String node : nodes) {
      if (!active || version != cluster.topology.version()) {
        return; // stopped, or the topology changed: rebuild before the next part
      }
      String path = cluster.layout.queue(partition) + "/" + node;
      List<CuratorOp> ops = new ArrayList<>();
      ops.add(cluster.zk.transactionOp().delete().forPath(path));
      ControlRequest part;
      try {
        part = RequestCodec.decode(cluster.zk.getData().forPath(path));
        if (awaitingHost(part)) {
          return; // retried after a topology change (the host learned) or a short wait
        }
        if (part.kind().adds() && builtOn.host(part.host()).isEmpty()) {
          cluster.requests.refuseWhole(partition, path, part, hostUnknown(part));
          cluster.refused.incrementAndGet();
          continue;
        }
        if (!part.kind().adds()
            && cluster.zk.checkExists().forPath(cluster.layout.standing(partition, part.id()))
                == null) {
          cluster.zk.transaction().forOperations(ops); // its addition was refused: nothing stands
          continue;
        }
        ConfigurationDelta delta;
        synchronized (this) {
          delta = part.applyTo(config);
        }
        sendAndAwait(delta);
      } catch (IllegalArgumentException e) {
        // unreadable, or refused by the CP-config: dropping it beats blocking the partition
        LOG.log(System.Logger.Level.ERROR, "dropped " + path + ": " + e.getMessage());
        cluster.refused.incrementAndGet();
        cluster.zk.transaction().forOperations(ops);
        continue;
      }
      String standing = cluster.layout.standing(partition, part.id());
      ops.add(
          part.kind().adds()
              ? cluster.zk.transactionOp().create().forPath(standing, RequestCodec.encode(part))
              : cluster.zk.transactionOp().delete().forPath(standing));
      cluster.zk.transaction().forOperations(ops);
      cluster.processed.incrementAndGet();
    }
  }

  private String hostUnknown(ControlRequest part) {
    return "host "
        + part.host()
        + " is not known to "
        + cluster.member()
        + ", the owner of partition "
        + ClusterLayout.name(partition)
        + ", "
        + cluster.hostGrace.toMillis() / 1000.0
        + " s after the request reached it: the request is refused and its other parts withdrawn";
  }

  /**
   * True while an addition's host is unknown to this process and {@link
   * ClusterControlPlane#HOST_GRACE} has not passed: the part stays at the head (order within the
   * partition is kept). After the grace the whole request is refused ({@link
   * RequestTracker#refuseWhole}).
   */
  private boolean awaitingHost(ControlRequest part) throws InterruptedException {
    if (!part.kind().adds() || builtOn.host(part.host()).isPresent()) {
      hostWaitStart = 0;
      return false;
    }
    if (version != cluster.topology.version()) {
      return true; // a newer topology may know the host: rebuild on it first, then look again
    }
    long now = System.nanoTime();
    if (hostWaitStart == 0) {
      hostWaitStart = now;
    } else if (now - hostWaitStart >= cluster.hostGrace.toNanos()) {
      hostWaitStart = 0;
      return false;
    }
    cluster.hostWaits.incrementAndGet();
    queueChanged.tryAcquire(100, TimeUnit.MILLISECONDS); // a topology change wakes it at once
    return true;
  }

  /**
   * All switches at once; a missing ack means resync and wait ({@link AcknowledgedSend}). The
   * batches carry the topology version they were computed on; one computed just before a change is
   * sent before this server's rebuild, never after, and the rebuild's resync corrects it.
   */
  private void sendAndAwait(ConfigurationDelta delta) throws InterruptedException {
    AcknowledgedSend.sendAndAwait(
        cluster.updates,
        delta.flowMods(),
        version,
        partition,
        this::flows,
        cluster.ackTimeout,
        () -> active,
        () -> {});
  }
}
