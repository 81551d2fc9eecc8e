package org.netpubsub.controller.pubsub;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.SouthboundException;
import org.netpubsub.controller.southbound.SouthboundTimeoutException;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Topology;

/**
 * A {@link LoopRouting} (PLEROMA, Camus) as a {@link RoutingEngine}: each request is configured and
 * its deltas applied to the {@link FlowService} in one loop task, so flow-mods leave in request
 * order; the request completes when every switch it touched acknowledged.
 */
final class LoopEngine implements RoutingEngine {
  private final FlowService flows;
  private final LoopRouting routing;
  private final Set<String> configured = new HashSet<>(); // loop only

  LoopEngine(FlowService flows, LoopRouting routing) {
    this.flows = flows;
    this.routing = routing;
  }

  @Override
  public String name() {
    return routing.name();
  }

  @Override
  public Owner owner() {
    return routing.owner();
  }

  @Override
  public void topologyChanged(Topology next) {
    routing.topologyChanged(next);
  }

  @Override
  public List<FlowEntry> flows(long dpid) {
    return routing.flows(dpid);
  }

  @Override
  public List<GroupEntry> groups(long dpid) {
    return routing.groups(dpid);
  }

  @Override
  public CompletableFuture<RequestOutcome> submit(PubSubRequest r, boolean withdraw, long start) {
    return flows
        .callOnLoop(() -> carryOut(r, withdraw ? remove(r) : add(r), start))
        .thenCompose(f -> f);
  }

  /** On the loop: the request joins the routing. */
  private LoopRouting.Effect add(PubSubRequest r) {
    String notReady = routing.notReady();
    if (notReady != null) {
      throw new RequestRefusedException(new Refused.NotReady(notReady));
    }
    LoopRouting.Effect effect = routing.add(r);
    configured.add(r.id());
    return effect;
  }

  /** On the loop: the request leaves (it may have been refused while its withdrawal queued). */
  private LoopRouting.Effect remove(PubSubRequest r) {
    if (!configured.remove(r.id())) {
      throw new RequestRefusedException(new Refused.Unknown("no request " + r.id()));
    }
    return routing.remove(r);
  }

  /** On the loop: applies the deltas; completes when every touched switch acknowledged. */
  private CompletableFuture<RequestOutcome> carryOut(
      PubSubRequest r, LoopRouting.Effect effect, long start) {
    int count = effect.messages();
    return flows
        .apply(routing.owner(), effect.mods())
        .handle(
            (switches, err) -> {
              if (err != null) {
                Throwable cause = err instanceof CompletionException ce ? ce.getCause() : err;
                if (cause instanceof SouthboundTimeoutException) {
                  throw new RequestRefusedException(
                      new Refused.Unacknowledged(
                          "switches did not acknowledge in time; they are being reconciled"));
                }
                if (cause instanceof SouthboundException failed) {
                  // e.g. a switch answered the batch with an OpenFlow error
                  throw new RequestRefusedException(
                      new Refused.SwitchFailed(
                          failed.getMessage() + "; the switch is being reconciled"));
                }
                throw new CompletionException(cause);
              }
              return new RequestOutcome(
                  r, count, switches, effect.paths(), System.nanoTime() - start);
            });
  }
}
