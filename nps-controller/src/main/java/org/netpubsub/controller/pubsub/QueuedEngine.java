package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.topology.Topology;

/**
 * A routing engine that configures requests off the controller loop, through queues: the
 * partitioned control plane in this process ({@link PartitionedPleromaEngine}) or spread over
 * several ({@link ClusterPleromaEngine}). Requests complete asynchronously through {@link #submit}.
 */
interface QueuedEngine extends RoutingEngine, AutoCloseable {
  /** The topology the control plane serves on. */
  Topology topology();

  @Override
  default String name() {
    return "pleroma";
  }

  @Override
  default String notReady() {
    return topology().spanningTree().isEmpty() ? "no switch is connected yet" : null;
  }

  /** The checks before an addition is queued: 503 before any switch, 409 for an unknown host. */
  default void checkAddition(PubSubRequest r) {
    String notReady = notReady();
    if (notReady != null) {
      throw new RequestRefusedException(503, notReady);
    }
    if (topology().host(r.host()).isEmpty()) {
      throw PubSubService.unknownHost(r.host());
    }
  }

  /** Queues the request's addition or withdrawal; completes when every part is acknowledged. */
  CompletableFuture<RequestOutcome> submit(PubSubRequest r, boolean withdraw, long start);

  /** The id of a new request: unique among the requests every process of the engine holds. */
  default String newId(PubSubRequest.Kind kind, long sequence) {
    return kind.idPrefix() + sequence;
  }

  /** A standing request another process accepted (so this one can withdraw it), if any. */
  default Optional<PubSubRequest> acceptedElsewhere(String id) {
    return Optional.empty();
  }

  /**
   * Completes when a standing addition accepted here stops standing other than through this process
   * (withdrawn at another process of a cluster); never, without other processes.
   */
  default CompletableFuture<Void> goneElsewhere(String id) {
    return new CompletableFuture<>();
  }

  /** True when other processes share the requests (a cluster of controller processes). */
  default boolean shared() {
    return false;
  }

  /**
   * Every standing request of every process sharing the engine ({@link #shared}): the listings and
   * the withdrawal by filter see them all.
   */
  default List<PubSubRequest> everyProcessRequests() {
    throw new UnsupportedOperationException("not shared with other processes");
  }

  /** The request as the control plane's addition. */
  static ControlRequest addition(PubSubRequest r) {
    return r.kind() == PubSubRequest.Kind.ADVERTISEMENT
        ? ControlRequest.advertise(r.id(), r.host(), r.cells())
        : ControlRequest.subscribe(r.id(), r.host(), r.port(), r.cells());
  }

  /** Not used: requests take {@link #submit}. */
  @Override
  default Effect add(PubSubRequest r) {
    throw new UnsupportedOperationException("a queued control plane is asynchronous");
  }

  @Override
  default Effect remove(PubSubRequest r) {
    throw new UnsupportedOperationException("a queued control plane is asynchronous");
  }

  @Override
  void close();
}
