package org.netpubsub.controller.pubsub;

import java.util.Objects;
import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;

/**
 * An accepted advertisement or subscription: who asked, the filter as written and in normal form
 * (requests with equal normal forms are the same filter), the subscriber's UDP port (the event port
 * for advertisements), the dz cells that approximate the filter, and the region of the principal it
 * was accepted under (empty: none). The network enforces {@code filter ∧ region}: the cells are cut
 * to it already, and an engine that compiles the filter itself (Camus) must cut it too. The region
 * travels with the request, not beside it, so an engine never sees a request without it.
 */
public record PubSubRequest(
    String id,
    Kind kind,
    Ipv6Address host,
    String filter,
    String normalForm,
    int port,
    DzSet cells,
    Optional<String> region) {

  public PubSubRequest {
    Objects.requireNonNull(region, "region");
  }

  /** Advertisement or subscription. */
  public enum Kind {
    ADVERTISEMENT("a-"),
    SUBSCRIPTION("s-");

    private final String idPrefix;

    Kind(String idPrefix) {
      this.idPrefix = idPrefix;
    }

    public String idPrefix() {
      return idPrefix;
    }
  }
}
