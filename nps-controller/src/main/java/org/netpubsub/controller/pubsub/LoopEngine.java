package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.netpubsub.controller.flows.FlowInvariantException;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.SouthboundException;
import org.netpubsub.controller.southbound.SouthboundTimeoutException;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Topology;

/**
 * A {@link LoopRouting} (PLEROMA, Camus) as a {@link RoutingEngine}: each request is configured and
 * its deltas applied to the {@link FlowService} in one loop task, so flow-mods leave in request
 * order; the request completes when every switch it touched acknowledged.
 */
final class LoopEngine implements RoutingEngine {
  private final FlowService flows;
  private LoopRouting routing; // loop only
  private LoopRouting beside; // loop only: the new layout's routing during a switch, else null
  private boolean guarded; // loop only: the routing's guards stand (a switch began)
  private final Set<String> configured = new HashSet<>(); // loop only
  private volatile StandingJournal journal; // null: requests live in memory only
  private java.util.function.Supplier<String> held = () -> null; // loop only; why additions wait
  private volatile RequestStages stages = RequestStages.NONE;

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
    if (beside != null) {
      beside.topologyChanged(next);
    }
  }

  /** Both layouts' flows during a switch (their matches differ in the event port), and guards. */
  @Override
  public List<FlowEntry> flows(long dpid) {
    if (beside == null && !guarded) {
      return routing.flows(dpid);
    }
    List<FlowEntry> all = new ArrayList<>(routing.flows(dpid));
    if (guarded) {
      all.addAll(routing.guards(dpid));
    }
    if (beside != null) {
      all.addAll(beside.flows(dpid));
    }
    return all;
  }

  @Override
  public List<GroupEntry> groups(long dpid) {
    return routing.groups(dpid);
  }

  @Override
  public CompletableFuture<Integer> installBeside(List<PubSubRequest> requests, int eventPort) {
    return flows
        .callOnLoop(
            () -> {
              if (beside != null) {
                throw new RequestRefusedException(
                    new Refused.Conflict("a layout switch is in progress"));
              }
              if (journal != null) {
                // the store's rows are checked at start against the index of --schema, so a
                // restart after a switch would come back on the old layout (docs/controller.md)
                throw new RequestRefusedException(
                    new Refused.Conflict(
                        "the layout cannot be switched with --store: a restart would come back"
                            + " on the layout of --schema"));
              }
              LoopRouting next = routing.emptyOnPort(eventPort);
              if (next == null) {
                return RoutingEngine.super.installBeside(requests, eventPort);
              }
              beside = next;
              for (PubSubRequest r : requests) { // advertisements first: fewer flow changes
                if (r.kind() == PubSubRequest.Kind.ADVERTISEMENT && configured.contains(r.id())) {
                  next.add(r);
                }
              }
              for (PubSubRequest r : requests) {
                if (r.kind() == PubSubRequest.Kind.SUBSCRIPTION && configured.contains(r.id())) {
                  next.add(r);
                }
              }
              // The old layout's guards stand (acknowledged) before any new flow is sent: the
              // switches' caches then revalidate while the new flows go in (ContentFlows.guard).
              LoopRouting old = routing;
              guarded = true;
              return applyAll(dpid -> adds(old.guards(dpid)), dpid -> 0)
                  .thenCompose(
                      g ->
                          flows
                              .callOnLoop(
                                  // the final flows, one ADD each, rather than every request's
                                  // intermediate changes
                                  () ->
                                      applyAll(
                                          dpid -> adds(next.flows(dpid)),
                                          dpid -> next.flows(dpid).size()))
                              .thenCompose(f -> f));
            })
        .thenCompose(f -> f);
  }

  private static List<FlowMod> adds(List<FlowEntry> entries) {
    return entries.stream().map(FlowMod::add).toList();
  }

  @Override
  public CompletableFuture<Integer> retireOld() {
    return flows
        .callOnLoop(
            () -> {
              LoopRouting old = routing;
              boolean wasGuarded = guarded;
              routing = beside;
              beside = null;
              guarded = false;
              return applyAll(
                  dpid ->
                      old.flows(dpid).isEmpty() && (!wasGuarded || old.guards(dpid).isEmpty())
                          ? List.of()
                          : old.retirement(dpid),
                  dpid -> old.flows(dpid).size());
            })
        .thenCompose(f -> f);
  }

  @Override
  public CompletableFuture<Integer> abandonBeside() {
    return flows
        .callOnLoop(
            () -> {
              LoopRouting gone = beside;
              beside = null;
              return gone == null
                  ? CompletableFuture.completedFuture(0)
                  : applyAll(
                      dpid -> gone.flows(dpid).isEmpty() ? List.of() : gone.retirement(dpid),
                      dpid -> gone.flows(dpid).size());
            })
        .thenCompose(f -> f);
  }

  /**
   * On the loop: every switch's {@code messages} (none: the switch is left out); completes with the
   * sum of {@code counted}, the flows they add or delete.
   */
  private CompletableFuture<Integer> applyAll(
      java.util.function.LongFunction<List<FlowMod>> messages,
      java.util.function.LongToIntFunction counted) {
    SortedMap<Long, List<SwitchMod>> mods = new TreeMap<>();
    int n = 0;
    for (long dpid : flows.topology().switches()) {
      List<FlowMod> l = messages.apply(dpid);
      if (!l.isEmpty()) {
        mods.put(dpid, SwitchMod.flows(l));
        n += counted.applyAsInt(dpid);
      }
    }
    int count = n;
    return flows.apply(routing.owner(), mods).thenApply(switches -> count);
  }

  @Override
  public void onStages(RequestStages sink) {
    stages = sink;
  }

  /** Records every request that stands and every withdrawal before its answer (--store). */
  void journal(StandingJournal j) {
    journal = j;
  }

  /** Additions wait (503) while {@code why} says why: a restart's hold (StoredRouting). */
  void heldWhile(java.util.function.Supplier<String> why) {
    held = why;
  }

  @Override
  public CompletableFuture<RequestOutcome> submit(PubSubRequest r, boolean withdraw, long start) {
    CompletableFuture<RequestOutcome> done = carriedOut(r, withdraw, start);
    return journal == null ? done : journal.record(r, withdraw, done);
  }

  private CompletableFuture<RequestOutcome> carriedOut(
      PubSubRequest r, boolean withdraw, long start) {
    long queued = System.nanoTime();
    return flows
        .callOnLoop(
            () -> {
              long[] at = {start, queued, System.nanoTime(), 0, 0};
              LoopRouting.Effect effect = withdraw ? remove(r) : add(r);
              at[3] = System.nanoTime();
              return carryOut(
                  r,
                  effect,
                  at,
                  withdraw
                      ? () -> {
                        routing.add(r);
                        configured.add(r.id());
                      }
                      : () -> {
                        routing.remove(r);
                        configured.remove(r.id());
                      });
            })
        .thenCompose(f -> f);
  }

  @Override
  public boolean coversByCells() {
    return routing.coversByCells();
  }

  @Override
  public CompletableFuture<Void> relabel(PubSubRequest next) {
    StandingJournal j = journal;
    return j == null ? CompletableFuture.completedFuture(null) : j.relabelled(next);
  }

  /**
   * One loop task: the old request leaves and {@code next} joins, the messages of both in one batch
   * per switch (the withdrawal's first), so once acknowledged the switches hold the new cover and
   * nothing of the old one outside it. An event reaching a switch between a delete and the add
   * after it in that batch may miss the host. Refused with nothing changed while the routing is not
   * ready or held; if {@code next} cannot join (its host left), the request is withdrawn and the
   * answer is that refusal.
   */
  @Override
  public CompletableFuture<RequestOutcome> replace(
      PubSubRequest old, PubSubRequest next, long start) {
    long queued = System.nanoTime();
    CompletableFuture<RequestOutcome> done =
        flows
            .callOnLoop(
                () -> {
                  long[] at = {start, queued, System.nanoTime(), 0, 0};
                  String notReady = routing.notReady() != null ? routing.notReady() : held.get();
                  if (notReady != null) {
                    throw new RequestRefusedException(new Refused.NotReady(notReady));
                  }
                  LoopRouting.Effect gone = remove(old);
                  LoopRouting.Effect in;
                  try {
                    in = routing.add(next);
                  } catch (RequestRefusedException e) {
                    at[3] = System.nanoTime();
                    Runnable undo =
                        () -> {
                          routing.add(old);
                          configured.add(old.id());
                        };
                    return carryOut(old, gone, at, undo)
                        .thenCompose(o -> CompletableFuture.<RequestOutcome>failedFuture(e));
                  }
                  configured.add(next.id());
                  at[3] = System.nanoTime();
                  Runnable undo =
                      () -> {
                        routing.remove(next);
                        routing.add(old);
                      };
                  return carryOut(next, merged(gone, in), at, undo);
                })
            .thenCompose(f -> f);
    return journal == null ? done : journal.replaced(next, done);
  }

  /** {@code a}'s messages, then {@code b}'s, per switch. */
  private static LoopRouting.Effect merged(LoopRouting.Effect a, LoopRouting.Effect b) {
    SortedMap<Long, List<SwitchMod>> mods = new TreeMap<>(a.mods().comparator());
    a.mods().forEach((dpid, l) -> mods.computeIfAbsent(dpid, d -> new ArrayList<>()).addAll(l));
    b.mods().forEach((dpid, l) -> mods.computeIfAbsent(dpid, d -> new ArrayList<>()).addAll(l));
    return new LoopRouting.Effect(mods, a.paths() + b.paths());
  }

  /**
   * On the loop: requests stored before a restart join without switch messages; the next topology
   * change computes them in (StoredRouting).
   */
  void restore(List<PubSubRequest> standing) {
    routing.restore(standing);
    standing.forEach(r -> configured.add(r.id()));
  }

  /** On the loop: the request joins the routing. */
  private LoopRouting.Effect add(PubSubRequest r) {
    switching();
    String notReady = routing.notReady() != null ? routing.notReady() : held.get();
    if (notReady != null) {
      throw new RequestRefusedException(new Refused.NotReady(notReady));
    }
    LoopRouting.Effect effect = routing.add(r);
    configured.add(r.id());
    return effect;
  }

  /** On the loop: the request leaves (it may have been refused while its withdrawal queued). */
  private LoopRouting.Effect remove(PubSubRequest r) {
    switching();
    if (!configured.remove(r.id())) {
      throw new RequestRefusedException(new Refused.Unknown("no request " + r.id()));
    }
    return routing.remove(r);
  }

  /** Requests wait for a layout switch to finish (PubSubService refuses them before, too). */
  private void switching() {
    if (beside != null) {
      throw new RequestRefusedException(
          new Refused.Unavailable(
              "the index layout is being switched; retry shortly", java.util.OptionalLong.of(1)));
    }
  }

  /**
   * On the loop: applies the deltas; completes when every touched switch acknowledged. {@code at}:
   * when the request was accepted, queued, taken by the loop and configured (nanoTime; the last
   * slot is filled here). {@code undo} takes the change out of the routing again if the flow
   * service refuses it as unsafe.
   */
  private CompletableFuture<RequestOutcome> carryOut(
      PubSubRequest r, LoopRouting.Effect effect, long[] at, Runnable undo) {
    int count = effect.messages();
    CompletableFuture<Integer> applied = flows.apply(routing.owner(), effect.mods());
    at[4] = System.nanoTime();
    if (applied.isCompletedExceptionally()
        && applied.exceptionNow() instanceof FlowInvariantException unsafe) {
      undo.run(); // the service took nothing: the routing forgets the change again
      return CompletableFuture.failedFuture(
          new RequestRefusedException(new Refused.Unsafe(unsafe.getMessage())));
    }
    return applied.handle(
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
          long done = System.nanoTime();
          RequestStages sink = stages;
          RequestStages.Stage[] order = RequestStages.Stage.values();
          for (int i = 0; i < order.length; i++) {
            sink.record(order[i], (i + 1 < at.length ? at[i + 1] : done) - at[i]);
          }
          return new RequestOutcome(r, count, switches, effect.paths(), done - at[0]);
        });
  }
}
