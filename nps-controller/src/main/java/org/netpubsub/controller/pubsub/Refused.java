package org.netpubsub.controller.pubsub;

import java.util.OptionalLong;

/**
 * Why a pub/sub request was refused, as a type: the engines and the service say what happened, and
 * only the REST layer ({@code api.RefusalStatus}) turns it into a status code.
 */
public sealed interface Refused {
  String reason();

  /** Seconds after which a retry may succeed, if known. */
  default OptionalLong retryAfterSeconds() {
    return OptionalLong.empty();
  }

  /**
   * Whether the request stands although it was refused an answer: it is configured, but switches
   * failed to acknowledge it and are being reconciled.
   */
  default boolean requestStands() {
    return false;
  }

  /** Bad input: a host, a port, a filter, an idempotency key. */
  record Invalid(String reason) implements Refused {}

  /** No such request (to withdraw). */
  record Unknown(String reason) implements Refused {}

  /**
   * The request does not fit the network or other requests: an unknown host, an idempotency key
   * used for another request, a partition's refusal.
   */
  record Conflict(String reason) implements Refused {}

  /**
   * Not allowed to the principal: a host it may not act for, a region outside its own, another
   * principal's request.
   */
  record Forbidden(String reason) implements Refused {}

  /**
   * The request's flows would break a network invariant with what the switches already hold: a loop
   * or black hole, named by its packet class and its path of {@code dpid/in_port} hops. Nothing was
   * installed, and the request does not stand.
   */
  record Unsafe(String reason) implements Refused {}

  /** A filter whose normal form costs more than the work budget. */
  record TooComplex(String reason) implements Refused {}

  /** A filter over the size limit. */
  record TooLarge(String reason) implements Refused {}

  /** Too many requests from the host (per second, or live at once). */
  record RateLimited(String reason, OptionalLong retryAfterSeconds) implements Refused {}

  /** The network is not ready: no switch yet, or no hierarchy for Camus yet. */
  record NotReady(String reason) implements Refused {}

  /** The control plane's store (ZooKeeper) is unreachable for now. */
  record Unavailable(String reason, OptionalLong retryAfterSeconds) implements Refused {}

  /** Configured, but switches did not acknowledge in time. */
  record Unacknowledged(String reason) implements Refused {
    @Override
    public boolean requestStands() {
      return true;
    }
  }

  /** Configured, but a switch answered the batch with an error. */
  record SwitchFailed(String reason) implements Refused {
    @Override
    public boolean requestStands() {
      return true;
    }
  }
}
