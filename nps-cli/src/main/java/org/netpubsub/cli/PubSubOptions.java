package org.netpubsub.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
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

  /** The service on {@code controller}, if a schema was given. */
  Optional<PubSubService> attach(NetworkController controller) {
    if (schema == null) {
      return Optional.empty();
    }
    Schema s = SchemaFiles.load(schema);
    if (dimensions != null) {
      s = s.withIndex(dimensions);
    }
    int length = dzLength == null ? SpatialIndex.defaultLength(s) : dzLength;
    if (length < 1 || length > Dz.MAX_LENGTH) {
      throw new IllegalArgumentException("--dz-length must be in 1.." + Dz.MAX_LENGTH);
    }
    if (maxCells < 1 || maxCells > SpatialIndex.MAX_CELLS_LIMIT) {
      throw new IllegalArgumentException(
          "--max-cells must be in 1.." + SpatialIndex.MAX_CELLS_LIMIT);
    }
    PubSubLimits limits = PubSubLimits.DEFAULTS.withRate(ratePerHost, burst).withMaxCells(maxCells);
    SpatialIndex index = new SpatialIndex(s, length);
    return Optional.of(
        switch (routing) {
          case "pleroma" ->
              configurators == 0
                  ? PubSubService.attach(controller, index, limits)
                  : PubSubService.attachPartitioned(controller, index, limits, controlPlane());
          case "camus-mr", "camus-tr" -> {
            if (configurators != 0) {
              throw new IllegalArgumentException("--configurators applies to --routing pleroma");
            }
            if (alpha < 1) {
              throw new IllegalArgumentException("--alpha must be at least 1");
            }
            yield PubSubService.attachCamus(
                controller, index, limits, RoutingPolicy.parse(routing.substring(6)), alpha);
          }
          default ->
              throw new IllegalArgumentException(
                  "--routing must be pleroma, camus-mr or camus-tr, not '" + routing + "'");
        });
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
