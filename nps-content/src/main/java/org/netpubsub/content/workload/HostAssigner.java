package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.List;

/** Chooses the host (0-based) of each subscription according to a {@link HostAssignment}. */
final class HostAssigner {
  private final HostAssignment assignment;
  private final int hosts;
  private final Rand rng;
  private final List<int[]> hostsOfHotspot = new ArrayList<>();
  private int[] nextOfHotspot;
  private int count;

  HostAssigner(HostAssignment assignment, int hosts, int hotspots, Rand rng) {
    this.assignment = assignment;
    this.hosts = hosts;
    this.rng = rng;
    if (assignment == HostAssignment.HOTSPOT) {
      if (hotspots < 1) {
        throw new IllegalArgumentException(
            "host assignment 'hotspot' needs a model with hotspots (zipf)");
      }
      for (int k = 0; k < hotspots; k++) {
        hostsOfHotspot.add(serving(k, hotspots, hosts));
      }
      nextOfHotspot = new int[hotspots];
    }
  }

  /** Host j serves hotspot j mod H; with fewer hosts than hotspots, hotspot k has host k mod N. */
  private static int[] serving(int hotspot, int hotspots, int hosts) {
    if (hosts < hotspots) {
      return new int[] {hotspot % hosts};
    }
    int[] out = new int[(hosts - hotspot + hotspots - 1) / hotspots];
    for (int i = 0; i < out.length; i++) {
      out[i] = hotspot + i * hotspots;
    }
    return out;
  }

  /** The host of the next subscription, drawn around {@code hotspot} (-1: none). */
  int next(int hotspot) {
    int i = count++;
    return switch (assignment) {
      case ROUND_ROBIN -> i % hosts;
      case RANDOM -> rng.belowInt(hosts);
      case HOTSPOT -> {
        int[] serving = hostsOfHotspot.get(hotspot);
        yield serving[nextOfHotspot[hotspot]++ % serving.length];
      }
    };
  }
}
