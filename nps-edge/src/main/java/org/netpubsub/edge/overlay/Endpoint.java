package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * An edge broker's entry under a topic: its site, where it receives datagrams and, in a subscriber
 * entry, the shortest DEADLINE its site's readers of the topic request (the publishing edges take
 * the direct path for it, §2.4.2).
 */
public record Endpoint(String site, InetSocketAddress address, Optional<Long> deadlineMillis) {
  public Endpoint {
    ZnodePaths.checkName(site);
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(deadlineMillis, "deadlineMillis");
    if (deadlineMillis.isPresent() && deadlineMillis.get() <= 0) {
      throw new IllegalArgumentException("'deadline_ms' must be > 0");
    }
  }

  /** An entry without a deadline. */
  public Endpoint(String site, InetSocketAddress address) {
    this(site, address, Optional.empty());
  }

  /** This entry with {@code millis} as its deadline (none: empty). */
  public Endpoint withDeadline(Optional<Long> millis) {
    return new Endpoint(site, address, millis);
  }
}
