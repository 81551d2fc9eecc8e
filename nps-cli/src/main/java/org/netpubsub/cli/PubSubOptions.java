package org.netpubsub.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.network.camus.RoutingPolicy;
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
          case "pleroma" -> PubSubService.attach(controller, index, limits);
          case "camus-mr", "camus-tr" -> {
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
}
