package org.netpubsub.controller.pubsub;

import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Publishing enforced at the host ports (docs/security.md): what the REST layer asks of it, in one
 * process ({@link IngressGuard}) or in a cluster ({@link ClusterIngress}, one writer for all).
 */
public interface Ingress {
  /**
   * Completes once the switches' drops follow every advertisement and withdrawal answered so far
   * (call before answering one: a publisher may send once answered).
   */
  CompletableFuture<?> sync();

  /**
   * {@link #sync()} after requests were replaced under their ids (a principals reload's re-cut,
   * {@link RegionRecut}): a writer that keeps requests by id reads them again.
   */
  default CompletableFuture<?> syncReplaced() {
    return sync();
  }

  /** The packets each host port dropped, read from the switches' flow counters. */
  CompletableFuture<SortedMap<SwitchPort, Long>> dropped();
}
