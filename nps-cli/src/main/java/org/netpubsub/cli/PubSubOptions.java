package org.netpubsub.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.content.Durations;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.app.ClusterRegistry;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.app.RestartHold;
import org.netpubsub.controller.controlplane.ClusterSettings;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.pubsub.ClusterIngress;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.StandingStore;
import org.netpubsub.controller.pubsub.StoredGroups;
import org.netpubsub.controller.pubsub.StoredRouting;
import org.netpubsub.controller.southbound.ReconcileScope;
import org.netpubsub.edge.overlay.Zk;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.controlplane.Partitions;
import picocli.CommandLine.Option;

/**
 * The options of {@code nps controller} that turn on in-network pub/sub: PLEROMA (content addresses
 * on a spanning tree) or Camus (compiled pipelines on a fat tree).
 */
final class PubSubOptions {
  @Option(
      names = "--routing",
      defaultValue = "pleroma",
      paramLabel = "R",
      description =
          "pleroma (docs/pubsub.md), camus-mr or camus-tr (docs/compiler.md: memory- or"
              + " traffic-reducing filter sets on a fat tree) (default: ${DEFAULT-VALUE}).")
  String routing;

  @Option(
      names = "--alpha",
      defaultValue = "1",
      paramLabel = "N",
      description = "Camus: discretization unit above the edge layer (default: 1, exact).")
  long alpha;

  @Option(
      names = "--store",
      paramLabel = "URL",
      description =
          "PLEROMA (one process, on its loop) or Camus: keep the standing requests, multicast"
              + " groups, hosts and topology in sqlite:PATH (created if missing) or"
              + " postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE (tables created if"
              + " missing), so a restarted controller rewrites no table (docs/controller.md,"
              + " Restart).")
  String store;

  @Option(
      names = "--restore-wait",
      defaultValue = "30s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "With --store: how long a restarted controller holds reconciles for the stored topology"
              + " to come back (default: ${DEFAULT-VALUE}).")
  Duration restoreWait;

  private StandingStore opened;
  private StandingStore.Contents stored;
  private RestartHold hold;

  @Option(
      names = "--schema",
      paramLabel = "FILE",
      description = "Serve pub/sub requests over this event schema (docs/pubsub.md).")
  Path schema;

  @Option(
      names = "--dz-length",
      paramLabel = "BITS",
      description =
          "Bits of the spatial index, at most 112 (what fits after ff0e::/16); default: enough to"
              + " resolve every value, capped at 112.")
  Integer dzLength;

  @Option(
      names = "--dimensions",
      split = ",",
      paramLabel = "ATTR",
      description = "The index dimensions, in order (default: the schema's index).")
  List<String> dimensions;

  @Option(
      names = "--max-cells",
      defaultValue = "64",
      paramLabel = "N",
      description = "dz cells (flows per switch) per filter at most (default: ${DEFAULT-VALUE}).")
  int maxCells;

  @Option(
      names = "--max-requests-per-second",
      defaultValue = "200",
      paramLabel = "R",
      description = "Sustained pub/sub requests per host (default: ${DEFAULT-VALUE}).")
  double ratePerHost;

  @Option(
      names = "--burst",
      defaultValue = "400",
      paramLabel = "N",
      description = "Pub/sub requests one host may send at once (default: ${DEFAULT-VALUE}).")
  int burst;

  @Option(
      names = "--configurators",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "PLEROMA: configure requests with N configurator threads over --partitions partitions"
              + " of the event space (docs/control-plane.md); 0: one configurator on the"
              + " controller loop (default: ${DEFAULT-VALUE}).")
  int configurators;

  @Option(
      names = "--partitions",
      defaultValue = "64",
      paramLabel = "K",
      description =
          "With --configurators: event-space partitions, a power of two"
              + " (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(
      names = "--balancing",
      defaultValue = "spa-lb",
      paramLabel = "B",
      description = "With --configurators: spa or spa-lb (default: ${DEFAULT-VALUE}).")
  String balancing;

  @Option(
      names = "--cluster",
      paramLabel = "HOST:PORT[,...]",
      description =
          "PLEROMA: share the partitioned control plane with the other controller processes"
              + " that name this ZooKeeper (docs/control-plane.md); every process must use the same"
              + " --partitions and --cluster-root. Off by default.")
  String cluster;

  @Option(
      names = "--member",
      paramLabel = "ID",
      description =
          "With --cluster: this process's id, unique among the live processes (letters, digits"
              + " and . _ : @ -; default: pid@host).")
  String member;

  @Option(
      names = "--cluster-root",
      defaultValue = ClusterSettings.DEFAULT_ROOT,
      paramLabel = "ZNODE",
      description = "With --cluster: where the cluster's znodes live (default: ${DEFAULT-VALUE}).")
  String clusterRoot;

  @Option(
      names = "--cluster-session-timeout",
      defaultValue = "4s",
      paramLabel = "DURATION",
      description =
          "With --cluster: the ZooKeeper session timeout, how long a dead process's partitions"
              + " wait for a new owner (default: ${DEFAULT-VALUE}).")
  String clusterSessionTimeout;

  @Option(
      names = "--zookeeper-auth",
      paramLabel = "FILE",
      description =
          "With --cluster: ZooKeeper digest credentials, one line user:password; every znode"
              + " the cluster creates is then readable and writable with them only"
              + " (docs/security.md).")
  Path zookeeperAuth;

  private CuratorFramework zk;
  private String memberId;
  private ClusterRegistry registry;
  private ClusterIngress ingress;
  // set while this process writes the cluster's multicast state (ClusterRegistry)
  private final AtomicBoolean multicastWriter = new AtomicBoolean();
  // set while this process writes the cluster's ingress drops (ClusterIngress)
  private final AtomicBoolean ingressWriter = new AtomicBoolean();

  /**
   * In a cluster (after {@link #attach}): hosts registered and groups put at any process,
   * replicated to this one through the cluster's ZooKeeper; empty outside a cluster.
   */
  Optional<ClusterRegistry> registry(NetworkController controller, MulticastGroups groups) {
    if (zk == null) {
      return Optional.empty();
    }
    try {
      registry =
          ClusterRegistry.start(zk, clusterRoot, memberId, controller, groups, multicastWriter);
    } catch (Exception e) {
      throw new IllegalStateException("reading the cluster's hosts and groups failed: " + e, e);
    }
    return Optional.of(registry);
  }

  /**
   * In a cluster with principals ({@code auth}): this process's part in enforcing publishing at the
   * host ports, one writer for the cluster (docs/security.md); empty otherwise.
   */
  Optional<ClusterIngress> clusterIngress(NetworkController controller, boolean auth) {
    if (zk == null || !auth) {
      return Optional.empty();
    }
    try {
      ingress =
          ClusterIngress.start(
              zk,
              clusterRoot,
              memberId,
              controller,
              controller.server()::switchHandle,
              ingressWriter);
    } catch (Exception e) {
      throw new IllegalStateException("joining the cluster's ingress writers failed: " + e, e);
    }
    return Optional.of(ingress);
  }

  /** What reconciling a switch manages: in a cluster, everything but the content flows. */
  ReconcileScope reconcileScope() {
    return cluster == null
        ? ReconcileScope.EVERYTHING
        : PubSubService.clusterReconcileScope(multicastWriter::get, ingressWriter::get);
  }

  /** Checks the cluster options before anything starts. */
  void validateCluster() {
    if (cluster == null) {
      if (member != null) {
        throw new IllegalArgumentException("--member applies with --cluster");
      }
      if (zookeeperAuth != null) {
        throw new IllegalArgumentException("--zookeeper-auth applies with --cluster");
      }
      return;
    }
    if (schema == null || !routing.equals("pleroma")) {
      throw new IllegalArgumentException("--cluster needs --schema and --routing pleroma");
    }
    if (configurators != 0) {
      throw new IllegalArgumentException(
          "--configurators does not apply with --cluster: each partition a process owns is"
              + " served by its own thread");
    }
    Durations.positive(clusterSessionTimeout, "--cluster-session-timeout");
  }

  /** Leaves the cluster (its partitions move to the others at once) and closes the client. */
  void closeCluster(Optional<PubSubService> service) {
    if (ingress != null) {
      ingress.close();
    }
    if (registry != null) {
      registry.close();
    }
    service.ifPresent(PubSubService::close);
    if (zk != null) {
      zk.close();
    }
  }

  /**
   * With --store: the store opened and read, and the hold the controller starts with (else null).
   * Call before the controller starts, so no switch is reconciled before the requests are back.
   */
  RestartHold restartHold() {
    if (store == null) {
      return null;
    }
    if (schema == null || !(routing.equals("pleroma") || routing.startsWith("camus-"))) {
      throw new IllegalArgumentException(
          "--store needs --schema and --routing pleroma, camus-mr or camus-tr");
    }
    if (cluster != null || configurators != 0) {
      throw new IllegalArgumentException(
          "--store applies to one controller process configuring on its loop: not with --cluster"
              + " (ZooKeeper keeps the requests) or --configurators");
    }
    if (restoreWait.isNegative()) {
      throw new IllegalArgumentException("--restore-wait must be 0 or more");
    }
    opened =
        StandingStore.open(
            store,
            routing.startsWith("camus-")
                ? Map.of(
                    "routing",
                    StoredRouting.routing(RoutingPolicy.parse(routing.substring(6)), alpha))
                : StoredRouting.pleromaFields(index(), limits()));
    try {
      stored = opened.load();
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
    hold = new RestartHold(stored.topology(), restoreWait.toMillis(), opened::topology);
    return hold;
  }

  /** Closes --store's file after the controller stopped (its last writes flushed). */
  void closeStore() {
    if (opened != null) {
      opened.close();
    }
  }

  /**
   * With --store: the multicast groups back from it. Call before {@link #attach}, whose restore of
   * the requests lets the restart's hold end.
   */
  void restoreGroups(MulticastGroups groups) {
    if (opened != null) {
      StoredGroups.restore(groups, opened, stored.groups(), hold);
    }
  }

  /** The service on {@code controller}, if a schema was given. */
  Optional<PubSubService> attach(NetworkController controller) {
    if (schema == null) {
      return Optional.empty();
    }
    validateCluster();
    SpatialIndex index = index();
    PubSubLimits limits = limits();
    return Optional.of(
        switch (routing) {
          case "pleroma" ->
              cluster != null
                  ? attachCluster(controller, index, limits)
                  : opened != null
                      ? StoredRouting.attachPleroma(
                          controller, index, limits, opened, stored.requests(), hold)
                      : configurators == 0
                          ? PubSubService.attach(controller, index, limits)
                          : PubSubService.attachPartitioned(
                              controller, index, limits, controlPlane());
          case "camus-mr", "camus-tr" -> {
            if (configurators != 0) {
              throw new IllegalArgumentException("--configurators applies to --routing pleroma");
            }
            if (alpha < 1) {
              throw new IllegalArgumentException("--alpha must be at least 1");
            }
            RoutingPolicy policy = RoutingPolicy.parse(routing.substring(6));
            yield opened == null
                ? PubSubService.attachCamus(controller, index, limits, policy, alpha)
                : StoredRouting.attachCamus(
                    controller, index, limits, policy, alpha, opened, stored.requests(), hold);
          }
          default ->
              throw new IllegalArgumentException(
                  "--routing must be pleroma, camus-mr or camus-tr, not '" + routing + "'");
        });
  }

  /** The index of --schema, --dimensions and --dz-length (the schema file is read here). */
  SpatialIndex index() {
    Schema s = SchemaFiles.load(schema);
    if (dimensions != null) {
      s = s.withIndex(dimensions);
    }
    int length = dzLength == null ? SpatialIndex.defaultLength(s) : dzLength;
    if (length < 1 || length > Dz.MAX_LENGTH) {
      throw new IllegalArgumentException("--dz-length must be in 1.." + Dz.MAX_LENGTH);
    }
    return new SpatialIndex(s, length);
  }

  /** The request limits of --max-requests-per-second, --burst and --max-cells. */
  PubSubLimits limits() {
    if (maxCells < 1 || maxCells > SpatialIndex.MAX_CELLS_LIMIT) {
      throw new IllegalArgumentException(
          "--max-cells must be in 1.." + SpatialIndex.MAX_CELLS_LIMIT);
    }
    return PubSubLimits.DEFAULTS.withRate(ratePerHost, burst).withMaxCells(maxCells);
  }

  /** The configurator threads' settings, null with --configurators 0 (on the controller loop). */
  ControlPlaneSettings configuratorSettings() {
    return configurators == 0 ? null : controlPlane();
  }

  private PubSubService attachCluster(
      NetworkController controller, SpatialIndex index, PubSubLimits limits) {
    Duration session = Durations.positive(clusterSessionTimeout, "--cluster-session-timeout");
    String id = member != null ? member : defaultMember();
    memberId = id;
    try {
      zk = Zk.connected(cluster, session, Duration.ofSeconds(10), ZkAuthFile.read(zookeeperAuth));
      return PubSubService.attachCluster(
          controller,
          index,
          limits,
          new ClusterSettings(
              zk, clusterRoot, id, Partitions.uniform(partitions), Duration.ofSeconds(10)));
    } catch (IllegalArgumentException e) {
      closeCluster(Optional.empty());
      throw e;
    } catch (Exception e) {
      closeCluster(Optional.empty());
      throw new IllegalStateException("joining the cluster at " + cluster + " failed: " + e, e);
    }
  }

  /** pid@host, with the host's name cut to what a znode id allows. */
  private static String defaultMember() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "-");
    } catch (IOException e) {
      host = "localhost";
    }
    return ProcessHandle.current().pid() + "@" + host;
  }

  private ControlPlaneSettings controlPlane() {
    ControlPlaneSettings.Balancing b =
        switch (balancing) {
          case "spa" -> ControlPlaneSettings.Balancing.SPA;
          case "spa-lb" -> ControlPlaneSettings.Balancing.SPA_LB;
          default ->
              throw new IllegalArgumentException(
                  "--balancing must be spa or spa-lb, not '" + balancing + "'");
        };
    return ControlPlaneSettings.of(configurators, Partitions.uniform(partitions)).withBalancing(b);
  }
}
