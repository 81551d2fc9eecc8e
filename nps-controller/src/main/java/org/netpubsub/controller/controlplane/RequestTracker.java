package org.netpubsub.controller.controlplane;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Partitions;

/**
 * A queued request's way to its outcome, through ZooKeeper ({@link ClusterLayout}): waiting until
 * its parts leave their queues, joining a request queued before under the same id (until its parts
 * stand), and refusing a whole addition when a partition's owner cannot carry out its part — the
 * refusal recorded in {@code refused/ID} for whoever waits for it.
 */
final class RequestTracker {
  private final CuratorFramework zk;
  private final ClusterLayout layout;
  private final Partitions partitions;

  RequestTracker(CuratorFramework zk, ClusterLayout layout, Partitions partitions) {
    this.zk = zk;
    this.layout = layout;
    this.partitions = partitions;
  }

  /**
   * Completes when the request's parts (their queue nodes) are all processed; an addition fails
   * with its {@link RequestRefusal} if a partition refused it.
   */
  CompletableFuture<RequestDone> awaitQueued(ControlRequest r, long start, List<String> queueNodes)
      throws Exception {
    PendingRequest pending = new PendingRequest(r.id(), start, queueNodes.size());
    for (String node : queueNodes) {
      awaitRemoval(node, pending);
    }
    return r.kind().adds() ? pending.done.thenCompose(this::unlessRefused) : pending.done;
  }

  /** Appends a part to a partition's queue (an operation of a transaction). */
  CuratorOp queueOp(Dz partition, ControlRequest part) throws Exception {
    return zk.transactionOp()
        .create()
        .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
        .forPath(layout.queue(partition) + "/r-", RequestCodec.encode(part));
  }

  /** An addition whose parts all left their queues is done, unless a partition refused its part. */
  private CompletableFuture<RequestDone> unlessRefused(RequestDone d) {
    // read in the background: this runs on ZooKeeper's event thread, which a blocking read would
    // hold up (and every other request's completion with it) while the connection is down
    CompletableFuture<RequestDone> out = new CompletableFuture<>();
    try {
      zk.getData()
          .inBackground(
              (client, event) -> {
                int rc = event.getResultCode();
                if (rc == KeeperException.Code.NONODE.intValue()) {
                  out.complete(d);
                } else if (rc == KeeperException.Code.OK.intValue()) {
                  out.completeExceptionally(
                      new RequestRefusal(
                          d.id(), new String(event.getData(), StandardCharsets.UTF_8)));
                } else {
                  out.completeExceptionally(
                      KeeperException.create(KeeperException.Code.get(rc), event.getPath()));
                }
              })
          .forPath(layout.refusal(d.id()));
    } catch (Exception e) {
      out.completeExceptionally(e);
    }
    return out;
  }

  /** The refusal recorded for this id, if any. */
  Optional<RequestRefusal> refusal(String id) throws Exception {
    try {
      byte[] reason = zk.getData().forPath(layout.refusal(id));
      return Optional.of(new RequestRefusal(id, new String(reason, StandardCharsets.UTF_8)));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    }
  }

  /**
   * Waits for a request another submit queued under the same id: done when every part stands;
   * failed with its refusal if a partition refused it; done as well if it was withdrawn meanwhile
   * (it had been carried out).
   */
  CompletableFuture<RequestDone> join(ControlRequest r) throws Exception {
    long start = System.nanoTime();
    ControlRequest existing;
    try {
      existing = RequestCodec.decode(zk.getData().forPath(layout.request(r.id())));
    } catch (KeeperException.NoNodeException e) {
      return settled(r.id(), start);
    }
    if (!existing.equals(r)) {
      throw new IllegalArgumentException(
          "id "
              + r.id()
              + " names another request ("
              + existing.kind()
              + " of "
              + existing.host()
              + ")");
    }
    SortedMap<Dz, DzSet> parts = partitions.split(existing.cells());
    PendingRequest pending = new PendingRequest(r.id(), start, parts.size());
    for (Dz p : parts.keySet()) {
      awaitCreation(layout.standing(p, r.id()), pending);
    }
    awaitRequestGone(r.id(), start, pending);
    return pending.done;
  }

  /** The request node is gone: refused (its refusal) or withdrawn after it stood (done). */
  private CompletableFuture<RequestDone> settled(String id, long start) throws Exception {
    Optional<RequestRefusal> refused = refusal(id);
    return refused.isPresent()
        ? CompletableFuture.failedFuture(refused.get())
        : CompletableFuture.completedFuture(
            new RequestDone(id, System.nanoTime() - start, 0, 0, 0, 0));
  }

  /**
   * Called by a partition server when an addition's host is still unknown to it after {@link
   * ClusterControlPlane#HOST_GRACE}: in one transaction, drops the part, records the refusal for
   * the submitter, removes the request and queues its withdrawal in every other partition it
   * touches (where its parts stand or will stand by then: queues are FIFO). A second refusal of the
   * same request (its host unknown in several partitions) only drops its part.
   */
  void refuseWhole(Dz partition, String queueNode, ControlRequest part, String reason)
      throws Exception {
    while (true) {
      List<CuratorOp> ops = new ArrayList<>();
      ops.add(zk.transactionOp().delete().forPath(queueNode));
      Stat stat = new Stat();
      try {
        ControlRequest added =
            RequestCodec.decode(
                zk.getData().storingStatIn(stat).forPath(layout.request(part.id())));
        ops.add(
            zk.transactionOp()
                .delete()
                .withVersion(stat.getVersion())
                .forPath(layout.request(part.id())));
        for (Map.Entry<Dz, DzSet> e : partitions.split(added.cells()).entrySet()) {
          if (!e.getKey().equals(partition)) {
            ops.add(queueOp(e.getKey(), added.withdrawal().withCells(e.getValue())));
          }
        }
      } catch (KeeperException.NoNodeException e) {
        // refused by another partition already (or withdrawn): only this part goes
      }
      if (zk.checkExists().forPath(layout.refusal(part.id())) == null) {
        ops.add(
            zk.transactionOp()
                .create()
                .forPath(layout.refusal(part.id()), reason.getBytes(StandardCharsets.UTF_8)));
      }
      try {
        zk.transaction().forOperations(ops);
        return;
      } catch (KeeperException.NodeExistsException
          | KeeperException.NoNodeException
          | KeeperException.BadVersionException e) {
        // another partition refused, or a client withdrew, at the same moment: look again
      }
    }
  }

  /** A check that may fail: the watches below run it again when they fire. */
  private interface Check {
    void run() throws Exception;
  }

  /** A one-shot watch that runs {@code check} again (re-arming it); a failure fails the request. */
  private static Watcher again(PendingRequest pending, Check check) {
    return event -> {
      try {
        check.run();
      } catch (Exception e) {
        pending.partFailed(e);
      }
    };
  }

  /** Completes one part of {@code pending} when its queue node is gone (processed). */
  private void awaitRemoval(String path, PendingRequest pending) throws Exception {
    Watcher w = again(pending, () -> awaitRemoval(path, pending));
    if (zk.checkExists().usingWatcher(w).forPath(path) == null) {
      pending.partDone(0, java.util.List.of(), 0, System.nanoTime());
    }
  }

  /** Completes one part of {@code pending} when the node exists (its part stands). */
  private void awaitCreation(String path, PendingRequest pending) throws Exception {
    Watcher w = again(pending, () -> awaitCreation(path, pending));
    if (!pending.done.isDone() && zk.checkExists().usingWatcher(w).forPath(path) != null) {
      pending.partDone(0, java.util.List.of(), 0, System.nanoTime());
    }
  }

  /** Settles {@code pending} if the request's node goes before every part stands. */
  private void awaitRequestGone(String id, long start, PendingRequest pending) throws Exception {
    Watcher w = again(pending, () -> awaitRequestGone(id, start, pending));
    if (!pending.done.isDone()
        && zk.checkExists().usingWatcher(w).forPath(layout.request(id)) == null) {
      settled(id, start)
          .whenComplete(
              (d, err) -> {
                if (err != null) {
                  pending.partFailed(err);
                } else {
                  pending.done.complete(d);
                }
              });
    }
  }
}
