package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.app.RestartHold;
import org.netpubsub.network.camus.RoutingPolicy;

/**
 * A loop routing (PLEROMA or Camus) with its requests in a {@link StandingStore}
 * (docs/controller.md, "Restart"): the requests that stood before a restart join the routing
 * without a switch message and stand in the service again (owners and regions included), before the
 * controller may reconcile any switch; from then on every standing request and withdrawal is
 * committed before its answer ({@link StandingJournal}). The controller must have been started with
 * {@code hold}; additions wait with 503 while it holds.
 */
public final class StoredRouting {
  private StoredRouting() {}

  /** What a Camus store is written under: requests of one routing compile to its tables only. */
  public static String routing(RoutingPolicy policy, long alpha) {
    return "camus-" + policy.label() + " alpha " + alpha;
  }

  /**
   * What a PLEROMA store is written under, checked field by field at start: a request's cells (its
   * flows) follow from its filter, the schema's attributes, the index and the cap on cells.
   */
  public static Map<String, String> pleromaFields(SpatialIndex index, PubSubLimits limits) {
    Schema s = index.schema();
    Map<String, String> f = new LinkedHashMap<>();
    f.put("routing", "pleroma");
    f.put("schema", String.format("%08x", s.id()));
    f.put(
        "index",
        s.indexDimensions().stream().map(a -> a.name()).toList()
            + " length "
            + index.length()
            + (s.layout().isRoundRobin()
                ? ""
                : " layout " + s.layout().segments() + " " + s.layout().codings()));
    f.put("max_cells", Integer.toString(limits.maxCells()));
    return f;
  }

  /** Camus (MR or TR, {@code alpha}) restored from {@code store}. */
  public static PubSubService attachCamus(
      NetworkController controller,
      SpatialIndex index,
      PubSubLimits limits,
      RoutingPolicy policy,
      long alpha,
      StandingStore store,
      List<StandingStore.Row> standing,
      RestartHold hold) {
    return attach(
        controller,
        index,
        limits,
        new CamusEngine(index.schema(), policy, alpha),
        store,
        standing,
        hold);
  }

  /**
   * PLEROMA on the controller loop (not partitioned, not clustered) restored from {@code store}.
   */
  public static PubSubService attachPleroma(
      NetworkController controller,
      SpatialIndex index,
      PubSubLimits limits,
      StandingStore store,
      List<StandingStore.Row> standing,
      RestartHold hold) {
    return attach(controller, index, limits, new PleromaEngine(), store, standing, hold);
  }

  private static PubSubService attach(
      NetworkController controller,
      SpatialIndex index,
      PubSubLimits limits,
      LoopRouting routing,
      StandingStore store,
      List<StandingStore.Row> standing,
      RestartHold hold) {
    List<PubSubRequest> requests = new ArrayList<>();
    for (StandingStore.Row row : standing) {
      requests.add(rebuild(index, limits, row));
    }
    LoopEngine engine = new LoopEngine(controller, routing);
    PubSubService s = PubSubService.attach(controller, index, limits, engine);
    // the service holds them before the routing does: an app reading the service's requests on a
    // topology change (IngressGuard) sees them all from the first one; no API serves yet
    for (int i = 0; i < requests.size(); i++) {
      PubSubRequest r = requests.get(i);
      String owner = standing.get(i).owner();
      s.live.put(r.id(), r);
      s.livePerHost.merge(r.host(), 1, Integer::sum);
      s.grants.put(
          r.id(),
          owner.isEmpty()
              ? Access.unowned(r.host().toString())
              : new Access(owner, false, r.region(), owner));
    }
    controller
        .callOnLoop(
            () -> {
              // an addition during the hold would be planned on a half-learnt topology
              engine.heldWhile(
                  () ->
                      hold.holding()
                          ? "the controller is restoring its stored topology after a restart"
                          : null);
              engine.restore(requests);
              s.topologyChanged(controller.topology()); // computed in; reconciles are still held
              return null;
            })
        .join();
    engine.journal(new StandingJournal(store, id -> s.owner(id).orElse("")));
    controller.restored().join();
    return s;
  }

  /** The request as it was accepted: its cells again from the filter (and region). */
  private static PubSubRequest rebuild(
      SpatialIndex index, PubSubLimits limits, StandingStore.Row row) {
    String field = "nps_requests row '" + row.id() + "' field ";
    Ipv6Address host;
    try {
      host = Ipv6Address.parse(row.host());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(field + "host: " + e.getMessage(), e);
    }
    try {
      FilterCells.Compiled c =
          FilterCells.compile(
              index, row.filter(), limits.maxFilterBytes(), limits.maxCells(), row.region());
      return new PubSubRequest(
          row.id(),
          row.kind(),
          host,
          row.filter(),
          c.normalForm(),
          row.port(),
          c.cells(),
          row.region());
    } catch (InvalidInputException e) {
      throw new IllegalArgumentException(
          field + "filter: " + e.render().lines().findFirst().orElse(""), e);
    } catch (RequestRefusedException e) {
      throw new IllegalArgumentException(field + "filter: " + e.getMessage(), e);
    }
  }
}
