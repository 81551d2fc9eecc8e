package org.netpubsub.controller.pubsub;

import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;

/**
 * An accepted advertisement or subscription: who asked, the filter as written and in normal form
 * (requests with equal normal forms are the same filter), the subscriber's UDP port (the event port
 * for advertisements) and the dz cells that approximate the filter.
 */
public record PubSubRequest(
    String id,
    Kind kind,
    Ipv6Address host,
    String filter,
    String normalForm,
    int port,
    DzSet cells) {

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
