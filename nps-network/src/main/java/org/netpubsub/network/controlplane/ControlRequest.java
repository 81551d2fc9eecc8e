package org.netpubsub.network.controlplane;

import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.pleroma.Advertisement;
import org.netpubsub.network.pleroma.ConfigurationDelta;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.Subscription;

/**
 * One control request of a participant (PLEROMA §IV): an advertisement, a subscription, or the
 * withdrawal of one, with the cells it concerns. A withdrawal carries the cells of what it
 * withdraws (the dispatcher knows them), so that it can be routed and ordered like an addition. The
 * participant is the host: requests of one host keep their relative order whatever else is
 * reordered (conservative when several subscribers share a host).
 */
public record ControlRequest(Kind kind, String id, Ipv6Address host, int udpPort, DzSet cells) {
  /** What the request does; additions and withdrawals are never reordered across each other. */
  public enum Kind {
    ADVERTISE,
    UNADVERTISE,
    SUBSCRIBE,
    UNSUBSCRIBE;

    public boolean adds() {
      return this == ADVERTISE || this == SUBSCRIBE;
    }

    public boolean isSubscription() {
      return this == SUBSCRIBE || this == UNSUBSCRIBE;
    }
  }

  public ControlRequest {
    if (kind == null || id == null || id.isBlank() || host == null || cells == null) {
      throw new IllegalArgumentException("kind, id, host and cells are required");
    }
  }

  public static ControlRequest advertise(String id, Ipv6Address host, DzSet cells) {
    return new ControlRequest(Kind.ADVERTISE, id, host, 0, cells);
  }

  public static ControlRequest subscribe(String id, Ipv6Address host, int udpPort, DzSet cells) {
    return new ControlRequest(Kind.SUBSCRIBE, id, host, udpPort, cells);
  }

  /** The withdrawal of this addition. */
  public ControlRequest withdrawal() {
    if (!kind.adds()) {
      throw new IllegalStateException(id + " is a withdrawal already");
    }
    return new ControlRequest(
        kind == Kind.ADVERTISE ? Kind.UNADVERTISE : Kind.UNSUBSCRIBE, id, host, udpPort, cells);
  }

  /** The same request restricted to some of its cells (a partial request). */
  public ControlRequest withCells(DzSet part) {
    return new ControlRequest(kind, id, host, udpPort, part);
  }

  /** The addition as the configurator's advertisement. */
  public Advertisement advertisement() {
    return new Advertisement(id, host, cells);
  }

  /** The addition as the configurator's subscription. */
  public Subscription subscription() {
    return new Subscription(id, host, udpPort, cells);
  }

  /** Carries the request out on one CP-config (IllegalArgumentException as the configurator's). */
  public ConfigurationDelta applyTo(Configurator c) {
    return switch (kind) {
      case ADVERTISE -> c.advertise(advertisement());
      case SUBSCRIBE -> c.subscribe(subscription());
      case UNADVERTISE -> c.unadvertise(id);
      case UNSUBSCRIBE -> c.unsubscribe(id);
    };
  }
}
