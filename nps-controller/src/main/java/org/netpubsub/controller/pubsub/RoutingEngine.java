package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Topology;

/**
 * How accepted advertisements and subscriptions become switch state, one asynchronous contract for
 * every engine (in the spirit of ONOS's {@code IntentCompiler.compile(intent, previous)}): a
 * request goes in through {@link #submit}, and its outcome — or a typed {@link Refused} — comes
 * back when every switch it touched acknowledged. PLEROMA and Camus compute on the controller loop
 * ({@link LoopEngine}); the partitioned control plane ({@link PartitionedPleromaEngine}) and the
 * cluster of controller processes ({@link ClusterPleromaEngine}) compute off it, through queues.
 *
 * <p>Threading: {@link #topologyChanged}, {@link #switchConnected}, {@link #flows} and {@link
 * #groups} run on the controller loop; the rest may be called from any thread.
 */
interface RoutingEngine extends AutoCloseable {
  /** What clients are told ({@code GET /v1/pubsub} "routing"). */
  String name();

  /** The owner of the switch layout the engine writes as. */
  default Owner owner() {
    return Owner.PUBSUB_CONTENT;
  }

  /** The topology changed: afterwards {@link #flows} and {@link #groups} reflect it. */
  void topologyChanged(Topology next);

  /** A switch (re)connected and may have lost its flows ({@link FlowService.Listener}). */
  default void switchConnected(long dpid) {}

  /** The engine's flows for one switch (all of them: after a topology change, they replace). */
  List<FlowEntry> flows(long dpid);

  default List<GroupEntry> groups(long dpid) {
    return List.of();
  }

  /**
   * Carries out a request's addition or withdrawal; completes when every switch it touched
   * acknowledged. Refusals — thrown at once or completing the future — are {@link
   * RequestRefusedException}s with a typed {@link Refused}.
   */
  CompletableFuture<RequestOutcome> submit(PubSubRequest r, boolean withdraw, long start);

  /**
   * Replaces a standing request by {@code next}: the same id, host and port, another cover (a
   * principals reload re-cut it to a new region, {@link RegionRecut}). Completes when every switch
   * acknowledged; a refusal that leaves no request standing means it was withdrawn. By default the
   * withdrawal, then the addition: events inside both covers miss the host between the two.
   */
  default CompletableFuture<RequestOutcome> replace(
      PubSubRequest old, PubSubRequest next, long start) {
    return submit(old, true, start)
        .thenCompose(
            o -> {
              CompletableFuture<RequestOutcome> added;
              try {
                added = submit(next, false, start);
              } catch (RuntimeException e) {
                added = CompletableFuture.failedFuture(e);
              }
              // withdrawn already: a refused addition leaves no request
              return added.exceptionallyCompose(
                  err -> CompletableFuture.failedFuture(RegionRecut.withdrawnBy(err)));
            });
  }

  /**
   * {@code next} replaces a standing request whose cover it keeps (only its region's text changed):
   * no switch message; where requests are stored, its row takes the new region.
   */
  default CompletableFuture<Void> relabel(PubSubRequest next) {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Whether a request's switch state follows from its cells alone (PLEROMA), so that equal cells
   * mean equal flows; false where the engine compiles {@code filter ∧ region} itself (Camus).
   */
  default boolean coversByCells() {
    return true;
  }

  /** Where completed requests' stages are reported ({@link RequestStages}), if the engine can. */
  default void onStages(RequestStages sink) {}

  /** The id of a new request: unique among the requests every process of the engine holds. */
  default String newId(PubSubRequest.Kind kind, String random) {
    return kind.idPrefix() + random;
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

  /** This process's member id in a cluster of controller processes (empty outside one). */
  default Optional<String> member() {
    return Optional.empty();
  }

  /**
   * Requests waiting in the configurators' partition queues now (docs/operations.md,
   * nps_configurator_queue_depth); empty for an engine without such queues. Any thread.
   */
  default OptionalLong configuratorQueueDepth() {
    return OptionalLong.empty();
  }

  /**
   * Partitions moved from one configurator to another so far: overload migrations, or in a cluster
   * partitions this process took over from another; empty for an engine without partitions. Any
   * thread.
   */
  default OptionalLong configuratorMigrations() {
    return OptionalLong.empty();
  }

  /**
   * Requests this process submitted to a cluster's shared control plane that have no outcome yet
   * (docs/operations.md, nps_cluster_requests_in_flight); empty outside a cluster. Any thread.
   */
  default OptionalLong clusterRequestsInFlight() {
    return OptionalLong.empty();
  }

  /** True when other processes share the requests (a cluster of controller processes). */
  default boolean shared() {
    return false;
  }

  /**
   * Every standing request of every process sharing the engine ({@link #shared}): the listings and
   * the withdrawal by filter see them all. Empty when the requests are not shared.
   */
  default List<PubSubRequest> everyProcessRequests() {
    return List.of();
  }

  /**
   * The first half of an online layout switch (make-before-break): configures {@code requests} (the
   * standing ones, their cells under the new layout) on a second routing whose content flows match
   * events sent to {@code eventPort}, beside the current flows, and installs them. Completes with
   * the number of flows installed when every switch acknowledged. Refused by engines that cannot
   * hold two layouts ({@link Refused.Conflict}).
   */
  default CompletableFuture<Integer> installBeside(List<PubSubRequest> requests, int eventPort) {
    return CompletableFuture.failedFuture(
        new RequestRefusedException(
            new Refused.Conflict(
                "the layout can only be switched online with PLEROMA routing on the controller"
                    + " loop (not "
                    + name()
                    + ", partitioned or clustered)")));
  }

  /**
   * The second half: the routing {@link #installBeside} built becomes the routing, and the old
   * one's flows are removed. Completes with the number of flows removed when every switch
   * acknowledged.
   */
  default CompletableFuture<Integer> retireOld() {
    return CompletableFuture.failedFuture(new IllegalStateException("no layout switch"));
  }

  /** Gives up a switch after {@link #installBeside}: removes the second routing's flows. */
  default CompletableFuture<Integer> abandonBeside() {
    return CompletableFuture.completedFuture(0);
  }

  /** Stops the engine's own threads and sessions, if any. Requests in flight may fail. */
  @Override
  default void close() {}

  /** The checks before an addition is queued: not ready before any switch, an unknown host. */
  static void checkAddition(Topology t, PubSubRequest r) {
    if (t.spanningTree().isEmpty()) {
      throw new RequestRefusedException(new Refused.NotReady("no switch is connected yet"));
    }
    if (t.host(r.host()).isEmpty()) {
      throw unknownHost(r.host());
    }
  }

  /** The host has not announced itself. */
  static RequestRefusedException unknownHost(Ipv6Address host) {
    return new RequestRefusedException(
        new Refused.Conflict(
            "host "
                + host
                + " is not known: it has not announced itself (IPv6 neighbour discovery)"
                + " and was not registered (POST /v1/hosts)"));
  }

  /** The request as the control plane's addition. */
  static ControlRequest addition(PubSubRequest r) {
    return r.kind() == PubSubRequest.Kind.ADVERTISEMENT
        ? ControlRequest.advertise(r.id(), r.host(), r.cells())
        : ControlRequest.subscribe(r.id(), r.host(), r.port(), r.cells());
  }
}
