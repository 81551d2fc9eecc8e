package org.netpubsub.content.workload;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One generated subscription: filter text in the netpubsub filter language, where it is delivered
 * (a host name such as {@code h3}, or switch ports as in Camus {@code fwd(H)}), and, when control
 * request arrivals are modelled, the time it is issued in milliseconds from the start.
 */
public record Subscription(
    String filter, Optional<String> host, List<Integer> ports, OptionalDouble atMs) {
  public Subscription {
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(host, "host");
    ports = List.copyOf(ports);
    Objects.requireNonNull(atMs, "atMs");
  }

  /** A subscription for host {@code host}. */
  public static Subscription forHost(String filter, String host, OptionalDouble atMs) {
    return new Subscription(filter, Optional.of(host), List.of(), atMs);
  }

  /** A subscription forwarded to switch port {@code port}. */
  public static Subscription forPort(String filter, int port, OptionalDouble atMs) {
    return new Subscription(filter, Optional.empty(), List.of(port), atMs);
  }
}
