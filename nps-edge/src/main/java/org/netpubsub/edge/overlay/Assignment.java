package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.util.Objects;

/** A topic's routing broker, as the leader writes it into {@code /topics/<t>}: name and locator. */
public record Assignment(String broker, InetSocketAddress address) {
  public Assignment {
    ZnodePaths.checkName(broker);
    Objects.requireNonNull(address, "address");
  }

  /**
   * The leader's write: {@code topic} moves from {@code before} (if any) to {@code after}, if the
   * topic znode is still at data {@code version} (a stale view or a deposed leader writes nothing).
   */
  public record Change(
      String topic, java.util.Optional<Assignment> before, int version, Assignment after) {}
}
