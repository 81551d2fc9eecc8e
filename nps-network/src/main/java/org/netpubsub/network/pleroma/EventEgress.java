package org.netpubsub.network.pleroma;

import java.util.Optional;

/**
 * Where a switch sends matching events: out of a port, towards the next switch of the tree
 * (unchanged), or to a subscriber's host (rewritten by the {@link LastHop}). Plain egresses order
 * before rewritten ones, so a flow's outputs run before any rewrite changes the packet.
 */
public record EventEgress(long port, Optional<LastHop> lastHop) implements Comparable<EventEgress> {
  public EventEgress {
    if (port < 1 || port > 0xffff_ff00L) {
      throw new IllegalArgumentException("not a physical port: " + port);
    }
    if (lastHop == null) {
      throw new IllegalArgumentException("lastHop is required (Optional.empty() for none)");
    }
  }

  /** Towards the next switch: the event leaves unchanged. */
  public static EventEgress towardsSwitch(long port) {
    return new EventEgress(port, Optional.empty());
  }

  /** To a subscriber behind {@code port}. */
  public static EventEgress toSubscriber(long port, LastHop hop) {
    return new EventEgress(port, Optional.of(hop));
  }

  @Override
  public int compareTo(EventEgress o) {
    if (this == o) {
      return 0; // the configurator shares egress objects, so sets of them mostly hit here
    }
    if (lastHop.isPresent() != o.lastHop.isPresent()) {
      return lastHop.isPresent() ? 1 : -1;
    }
    int c = Long.compare(port, o.port);
    return c != 0 || lastHop.isEmpty() ? c : lastHop.get().compareTo(o.lastHop.get());
  }

  @Override
  public boolean equals(Object o) {
    return this == o || o instanceof EventEgress e && port == e.port && lastHop.equals(e.lastHop);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(port) * 31 + lastHop.hashCode();
  }

  @Override
  public String toString() {
    return lastHop.map(h -> port + "→" + h).orElse(Long.toString(port));
  }
}
