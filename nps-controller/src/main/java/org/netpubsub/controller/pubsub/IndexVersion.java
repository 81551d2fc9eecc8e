package org.netpubsub.controller.pubsub;

import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * The index clients address events with, its version (1 at start, one more per layout switch) and
 * the UDP port events are sent to. The port alternates between {@link ContentFlows#EVENT_PORT} (odd
 * versions) and {@link #ALTERNATE_EVENT_PORT} (even versions): during a switch the flows of both
 * layouts stand side by side, and the port is the one bit that keeps their matches disjoint, so an
 * event follows the flows of exactly one layout (docs/pubsub.md, "Switching the layout").
 */
public record IndexVersion(SpatialIndex index, long version, int eventPort) {
  /** Where events of even index versions are sent. */
  public static final int ALTERNATE_EVENT_PORT = ContentFlows.EVENT_PORT + 1;

  public IndexVersion {
    if (version < 1) {
      throw new IllegalArgumentException("index versions start at 1: " + version);
    }
    if (eventPort != portOf(version)) {
      throw new IllegalArgumentException("version " + version + " uses port " + portOf(version));
    }
  }

  static IndexVersion first(SpatialIndex index) {
    return new IndexVersion(index, 1, ContentFlows.EVENT_PORT);
  }

  /** The next version, with {@code next} as its index. */
  IndexVersion successor(SpatialIndex next) {
    return new IndexVersion(next, version + 1, portOf(version + 1));
  }

  static int portOf(long version) {
    return version % 2 == 1 ? ContentFlows.EVENT_PORT : ALTERNATE_EVENT_PORT;
  }
}
