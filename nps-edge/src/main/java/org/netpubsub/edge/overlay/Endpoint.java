package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * An edge broker's entry under a topic: its site, where it receives datagrams and, in a subscriber
 * entry, the shortest DEADLINE its site's readers of the topic request (the publishing edges take
 * the direct path for it, §2.4.2), and whether the edge holds its own datagram key only ({@code
 * ownKey}: what is sent to it is sealed under its key, docs/security.md "Per-edge keys").
 */
public record Endpoint(
    String site, InetSocketAddress address, Optional<Long> deadlineMillis, boolean ownKey) {
  public Endpoint {
    ZnodePaths.checkName(site);
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(deadlineMillis, "deadlineMillis");
    if (deadlineMillis.isPresent() && deadlineMillis.get() <= 0) {
      throw new IllegalArgumentException("'deadline_ms' must be > 0");
    }
  }

  /** An entry of an edge holding the deployment keys. */
  public Endpoint(String site, InetSocketAddress address, Optional<Long> deadlineMillis) {
    this(site, address, deadlineMillis, false);
  }

  /** An entry without a deadline. */
  public Endpoint(String site, InetSocketAddress address) {
    this(site, address, Optional.empty());
  }

  /** This entry with {@code millis} as its deadline (none: empty). */
  public Endpoint withDeadline(Optional<Long> millis) {
    return new Endpoint(site, address, millis, ownKey);
  }
}
