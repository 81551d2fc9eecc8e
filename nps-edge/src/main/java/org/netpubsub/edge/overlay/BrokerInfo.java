package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What a routing broker writes into its own {@code /brokers/<rb>}: its locator and its recent
 * message rate (messages relayed per second), the load the rate strategy balances.
 */
public record BrokerInfo(InetSocketAddress address, double rate) {
  public BrokerInfo {
    Objects.requireNonNull(address, "address");
    if (!(rate >= 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("rate must be finite and >= 0, not " + rate);
    }
  }
}
