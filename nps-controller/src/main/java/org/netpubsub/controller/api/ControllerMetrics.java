package org.netpubsub.controller.api;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.netpubsub.controller.app.ClusterRegistry;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.nbi.NorthboundBus;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RequestStages;
import org.netpubsub.controller.southbound.DisconnectReason;
import org.netpubsub.controller.southbound.SouthboundMetrics;
import org.netpubsub.http.DynamicMeters;
import org.netpubsub.http.HttpMetrics;
import org.netpubsub.network.discovery.HostRefusals;

/**
 * The controller's meters (docs/operations.md lists them with units): the counters the southbound,
 * the northbound bus and the pub/sub service keep already, read through function counters and
 * gauges at each scrape, and the barrier latency histogram.
 */
final class ControllerMetrics {
  private ControllerMetrics() {}

  /** Binds the meters; the hook returned registers the meters of new names (call it per scrape). */
  static Runnable bind(
      MeterRegistry r,
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<ClusterRegistry> cluster) {
    Gauge.builder("nps.switches.connected", controller, c -> c.connectedSwitches().size())
        .description("switches connected over OpenFlow")
        .register(r);
    Gauge.builder("nps.topology.links", controller, c -> c.topology().links().size())
        .description("links discovered")
        .register(r);
    Gauge.builder("nps.topology.hosts", controller, c -> c.topology().hosts().size())
        .description("hosts known")
        .register(r);
    for (HostRefusals.Reason reason : HostRefusals.Reason.values()) {
      FunctionCounter.builder("nps.hosts.refused", controller, c -> c.hostRefusals().count(reason))
          .description(
              "hosts neighbour discovery did not learn, or POST /v1/hosts did not register: their"
                  + " port has the limit of hosts, by reason")
          .tag("reason", reason.tag())
          .register(r);
    }
    southbound(r, controller.server().metrics());
    Runnable onScrape = northbound(r, controller.northbound());
    pubsub.ifPresent(s -> pubsub(r, s));
    cluster.ifPresent(
        c ->
            Gauge.builder("nps.zookeeper.connected", c, x -> x.zooKeeperConnected() ? 1 : 0)
                .description("1 while this process holds a ZooKeeper session, else 0")
                .register(r));
    return onScrape;
  }

  private static void southbound(MeterRegistry r, SouthboundMetrics m) {
    count(
        r,
        "nps.openflow.connections.accepted",
        "OpenFlow connections accepted",
        m,
        SouthboundMetrics::connectionsAccepted);
    count(
        r,
        "nps.openflow.handshakes",
        "OpenFlow handshakes completed",
        m,
        SouthboundMetrics::handshakesCompleted);
    for (DisconnectReason reason : DisconnectReason.values()) {
      FunctionCounter.builder("nps.openflow.disconnects", m, x -> x.disconnects(reason))
          .description("switch connections ended, by reason")
          .tag("reason", reason.name().toLowerCase())
          .register(r);
    }
    count(
        r,
        "nps.openflow.messages.received",
        "OpenFlow messages received",
        m,
        SouthboundMetrics::messagesReceived);
    count(
        r,
        "nps.openflow.messages.sent",
        "OpenFlow messages sent",
        m,
        SouthboundMetrics::messagesSent);
    count(
        r,
        "nps.openflow.flow.mods.sent",
        "flow-mods and group-mods sent",
        m,
        SouthboundMetrics::modsSent);
    for (String outcome : new String[] {"acknowledged", "failed", "timed_out"}) {
      FunctionCounter.builder("nps.openflow.batches", m, batches(outcome))
          .description("flow-mod batches (each closed by a barrier), by outcome")
          .tag("outcome", outcome)
          .register(r);
    }
    count(
        r,
        "nps.openflow.errors.unsolicited",
        "OpenFlow errors that answered no pending request",
        m,
        SouthboundMetrics::unsolicitedErrors);
    count(
        r,
        "nps.openflow.reconciles",
        "switch reconciles completed",
        m,
        SouthboundMetrics::reconciles);
    count(
        r,
        "nps.openflow.reconcile.failures",
        "switch reconciles failed",
        m,
        SouthboundMetrics::reconcileFailures);
    count(
        r,
        "nps.openflow.reconcile.differences",
        "flows and groups the reconciles found different and rewrote",
        m,
        SouthboundMetrics::reconcileDifferences);
    count(
        r,
        "nps.openflow.tls.turn.overflow",
        "TLS handshakes begun at once although they would wait for a turn: waiting was full",
        m,
        SouthboundMetrics::tlsTurnsOverflow);
    Gauge.builder("nps.openflow.tls.turns.waiting", m, SouthboundMetrics::tlsTurnsWaiting)
        .description("TLS handshakes waiting for a turn (only while the controller is slow)")
        .register(r);
    Timer barrier =
        HttpMetrics.latency(
                "nps.openflow.barrier.latency", "flow-mod batch sent to its barrier reply")
            .register(r);
    m.onBarrierLatency(nanos -> barrier.record(nanos, TimeUnit.NANOSECONDS));
  }

  private static ToDoubleFunction<SouthboundMetrics> batches(String outcome) {
    return switch (outcome) {
      case "acknowledged" -> SouthboundMetrics::batchesAcknowledged;
      case "failed" -> SouthboundMetrics::batchesFailed;
      default -> SouthboundMetrics::batchesTimedOut;
    };
  }

  private static Runnable northbound(MeterRegistry r, NorthboundBus bus) {
    count(
        r,
        "nps.nbi.packet.ins",
        "packet-ins published on the northbound bus (see BusMetrics)",
        bus,
        b -> b.metrics().packetIns());
    count(
        r,
        "nps.nbi.deliveries",
        "packet-ins delivered to apps",
        bus,
        b -> b.metrics().deliveries());
    count(
        r,
        "nps.nbi.unclaimed",
        "packet-ins no app's topic matched",
        bus,
        b -> b.metrics().unclaimed());
    DynamicMeters perApp =
        new DynamicMeters(
            r,
            bus::deliveriesByApp,
            app ->
                DynamicMeters.Meter.counter(
                    "nps.nbi.app.packet.ins",
                    "packet-ins delivered to each app, the ones its northbound topics matched",
                    Tags.of("app", app)));
    perApp.refresh();
    // one series per registered topic (at most TopicCounts.CAPACITY, then "other"); its own name,
    // as nps_nbi_packet_ins_total counts each packet-in once and a packet-in may match several
    DynamicMeters perTopic =
        new DynamicMeters(
            r,
            bus::packetInsByTopic,
            topic ->
                DynamicMeters.Meter.counter(
                    "nps.nbi.topic.packet.ins",
                    "packet-ins that matched each northbound topic (classified mode; a FOR_ALL"
                        + " topic counts the packet-ins it sent to every app)",
                    Tags.of("topic", topic)));
    perTopic.refresh();
    count(r, "nps.nbi.packet.outs", "packet-outs apps sent", bus, b -> b.metrics().packetOuts());
    count(r, "nps.nbi.flow.mods", "flow-mods apps sent", bus, b -> b.metrics().flowMods());
    count(
        r,
        "nps.nbi.refused.flow.mods",
        "flow-mods of apps refused by the checks",
        bus,
        b -> b.metrics().refusedFlowMods());
    count(
        r,
        "nps.nbi.app.failures",
        "apps that threw on a packet-in",
        bus,
        b -> b.metrics().appFailures());
    count(
        r,
        "nps.nbi.remote.unauthenticated",
        "remote-app handshakes refused for want of an admitted CURVE key (--nbi-remote-key)",
        bus,
        b -> b.metrics().remoteUnauthenticated());
    count(
        r,
        "nps.nbi.remote.forbidden",
        "remote-app requests and answers naming an app their CURVE client may not act as",
        bus,
        b -> b.metrics().remoteForbidden());
    count(
        r,
        "nps.nbi.remote.data.dropped",
        "messages for remote apps not sent to a data connection whose queue was full (slow client)",
        bus,
        NorthboundBus::remoteDataDropped);
    String[] what = {
      "remote-app registrations and subscriptions refused at a cap (apps per client, apps, topics"
          + " per app)",
      "remote-app registrations dropped after their app was silent too long (60 s)",
      "remote-app registrations dropped when a clients file reload took their client's right"
    };
    String[] names = {"refused", "expired", "revoked"};
    for (int i = 0; i < names.length; i++) {
      int k = i;
      count(
          r,
          "nps.nbi.remote.registrations." + names[i],
          what[i],
          bus,
          b -> b.remoteRegistrationCounts()[k]);
    }
    return () -> {
      perApp.refresh();
      perTopic.refresh();
    };
  }

  private static void pubsub(MeterRegistry r, PubSubService s) {
    EnumMap<RequestStages.Stage, Timer> stages = new EnumMap<>(RequestStages.Stage.class);
    for (RequestStages.Stage stage : RequestStages.Stage.values()) {
      stages.put(
          stage,
          HttpMetrics.latency(
                  "nps.pubsub.request.stage",
                  "where pub/sub requests' response time goes, by stage (docs/operations.md)")
              .tag("stage", stage.tag())
              .register(r));
    }
    s.onStages((stage, nanos) -> stages.get(stage).record(nanos, TimeUnit.NANOSECONDS));
    for (PubSubRequest.Kind kind : PubSubRequest.Kind.values()) {
      Gauge.builder("nps.pubsub.standing", s, x -> x.requests(kind).size())
          .description("advertisements and subscriptions standing, by kind")
          .tag("kind", PubSubRoutes.noun(kind))
          .register(r);
    }
    // PLEROMA's partitioned engines (--configurators N, a cluster): their queues and migrations
    if (s.configuratorLoad().queueDepth().isPresent()) {
      Gauge.builder(
              "nps.configurator.queue.depth", s, x -> x.configuratorLoad().queueDepth().orElse(0))
          .description("requests waiting in the configurators' partition queues")
          .register(r);
    }
    // a cluster has no local queue: what waits is this process's requests in the shared plane
    if (s.configuratorLoad().clusterInFlight().isPresent()) {
      Gauge.builder(
              "nps.cluster.requests.in.flight",
              s,
              x -> x.configuratorLoad().clusterInFlight().orElse(0))
          .description("requests this process submitted to the cluster, not answered yet")
          .register(r);
    }
    if (s.configuratorLoad().migrations().isPresent()) {
      count(
          r,
          "nps.configurator.migrations",
          "partitions moved between configurators (in a cluster: taken over by this process)",
          s,
          x -> x.configuratorLoad().migrations().orElse(0));
    }
  }

  private static <T> void count(
      MeterRegistry r, String name, String description, T obj, ToDoubleFunction<T> f) {
    FunctionCounter.builder(name, obj, f).description(description).register(r);
  }
}
