package org.netpubsub.controller.pubsub;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.netpubsub.controller.controlplane.ClusterControlPlane;
import org.netpubsub.controller.controlplane.ClusterSettings;
import org.netpubsub.controller.controlplane.RequestDone;
import org.netpubsub.controller.controlplane.RequestRefusal;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.ReconcileScope;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.IngressDrops;
import org.netpubsub.network.topology.Topology;

/**
 * PLEROMA on a partitioned control plane shared by several controller processes through ZooKeeper
 * (docs/control-plane.md, "In the controller"). This process configures the partitions it owns; its
 * desired state holds their content flows only, and only its partition servers write them (batches
 * and scoped resyncs), so the switch-wide reconcile leaves content flows alone ({@link
 * #reconcileScope}). Requests submitted here may be configured by any process.
 */
final class ClusterPleromaEngine implements RoutingEngine {
  /**
   * What the controller's switch-wide reconcile manages in a cluster: every flow but the content
   * flows (those belong to the partitions' owners); the multicast flows and the groups only while
   * this process writes the multicast state ({@code writesMulticast}: one process does), and the
   * ingress drops only while it writes those ({@code writesIngress}, {@link ClusterIngress}).
   */
  static ReconcileScope reconcileScope(
      BooleanSupplier writesMulticast, BooleanSupplier writesIngress) {
    return new ReconcileScope(
        f ->
            f.cookie() != ContentFlows.COOKIE
                && (f.cookie() != GroupForwarding.COOKIE || writesMulticast.getAsBoolean())
                && (f.cookie() != IngressDrops.COOKIE || writesIngress.getAsBoolean()),
        writesMulticast);
  }

  /** The labels a request's filter is stored under in ZooKeeper, for the other processes. */
  private static final String FILTER = "filter";

  private static final String NORMAL_FORM = "normal_form";

  private final ClusterControlPlane plane;
  private final String idTag; // member and a per-run nonce: ids stay unique across restarts
  private final AtomicLong inFlight = new AtomicLong();

  ClusterPleromaEngine(FlowService controller, ClusterSettings settings) throws Exception {
    ClusterControlPlane[] self = new ClusterControlPlane[1];
    this.plane =
        new ClusterControlPlane(
            settings.zk(),
            settings.root(),
            settings.member(),
            Topology.EMPTY,
            settings.partitions(),
            new ControllerFlowUpdates(
                controller, () -> self[0] == null ? 0 : self[0].topologyVersion()),
            settings.ackTimeout(),
            () -> storeAll(controller));
    self[0] = plane;
    this.idTag =
        settings.member() + "." + Long.toString(new SecureRandom().nextInt() & 0xffffffL, 36);
  }

  /**
   * This process's partitions changed outside the batches (taken over or handed on): their content
   * flows replace the store's. Nothing is sent.
   */
  private void storeAll(FlowService controller) {
    controller.callOnLoop(
        () -> {
          for (long dpid : controller.topology().switches()) {
            controller.replace(owner(), dpid, plane.flows(dpid), List.of());
          }
          return null;
        });
  }

  @Override
  public Optional<String> member() {
    return Optional.of(plane.member());
  }

  @Override
  public String name() {
    return "pleroma";
  }

  @Override
  public void topologyChanged(Topology next) {
    if (!next.equals(plane.topology())) {
      plane.topologyChanged(next);
    }
  }

  /** A switch that reconnects may have lost its flows: every partition resyncs (ours only). */
  @Override
  public void switchConnected(long dpid) {
    plane.resync();
  }

  @Override
  public List<FlowEntry> flows(long dpid) {
    return plane.flows(dpid);
  }

  @Override
  public String newId(PubSubRequest.Kind kind, String random) {
    return kind.idPrefix() + idTag + "." + random;
  }

  @Override
  public Optional<PubSubRequest> acceptedElsewhere(String id) {
    try {
      return plane.standing(id).map(ClusterPleromaEngine::request);
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // not an id any process hands out
    } catch (Exception e) {
      throw unavailable(e);
    }
  }

  @Override
  public CompletableFuture<RequestOutcome> submit(PubSubRequest r, boolean withdraw, long start) {
    if (!withdraw) {
      RoutingEngine.checkAddition(plane.topology(), r);
    }
    ControlRequest add = RoutingEngine.addition(r);
    CompletableFuture<RequestDone> done;
    try {
      // an addition under an id already queued (a retry with the same idempotency key, perhaps at
      // another process after the first died) joins that request instead of standing twice
      done =
          withdraw
              ? plane.submit(add.withdrawal())
              : plane.submitOrJoin(add, Map.of(FILTER, r.filter(), NORMAL_FORM, r.normalForm()));
    } catch (IllegalArgumentException e) {
      // the id names another request, or a withdrawal another process carried out first
      throw new RequestRefusedException(
          withdraw ? new Refused.Unknown(e.getMessage()) : new Refused.Conflict(e.getMessage()));
    } catch (Exception e) {
      throw unavailable(e);
    }
    inFlight.incrementAndGet();
    return done.handle(
        (d, err) -> {
          inFlight.decrementAndGet(); // before the outcome: who has it finds the request done
          if (err == null) {
            return new RequestOutcome(r, 0, 0, 0, System.nanoTime() - start);
          }
          Throwable cause = err instanceof CompletionException c ? c.getCause() : err;
          if (cause instanceof RequestRefusal refused) {
            throw new RequestRefusedException(new Refused.Conflict(refused.getMessage()));
          }
          throw err instanceof CompletionException c ? c : new CompletionException(err);
        });
  }

  @Override
  public CompletableFuture<Void> goneElsewhere(String id) {
    try {
      return plane.gone(id);
    } catch (Exception e) {
      return new CompletableFuture<>(); // the listings still read ZooKeeper; only the count lags
    }
  }

  @Override
  public OptionalLong configuratorMigrations() {
    return OptionalLong.of(plane.takeovers());
  }

  @Override
  public OptionalLong clusterRequestsInFlight() {
    return OptionalLong.of(inFlight.get());
  }

  @Override
  public boolean shared() {
    return true;
  }

  @Override
  public List<PubSubRequest> everyProcessRequests() {
    try {
      List<PubSubRequest> out = new ArrayList<>();
      plane.standingAdditions().forEach(l -> out.add(request(l.request(), l.labels())));
      return out;
    } catch (Exception e) {
      throw unavailable(e);
    }
  }

  @Override
  public void close() {
    plane.close();
  }

  /** ZooKeeper unreachable, or this process's session expired and is being renewed: retry. */
  private static RequestRefusedException unavailable(Exception e) {
    return new RequestRefusedException(
        new Refused.Unavailable(
            "the control plane's ZooKeeper is unavailable: " + e.getMessage(), OptionalLong.of(1)));
  }

  private static PubSubRequest request(ControlRequest c) {
    return request(c, Map.of());
  }

  /**
   * A standing addition, perhaps of another process, as a request: its filter and normal form as
   * labelled by its submitter.
   */
  private static PubSubRequest request(ControlRequest c, Map<String, String> labels) {
    boolean sub = c.kind().isSubscription();
    return new PubSubRequest(
        c.id(),
        sub ? PubSubRequest.Kind.SUBSCRIPTION : PubSubRequest.Kind.ADVERTISEMENT,
        c.host(),
        labels.getOrDefault(FILTER, "(accepted by another controller process)"),
        labels.getOrDefault(NORMAL_FORM, ""),
        sub ? c.udpPort() : ContentFlows.EVENT_PORT,
        c.cells(),
        Optional.empty()); // cut to its region at its submitter: the cells carry it
  }
}
