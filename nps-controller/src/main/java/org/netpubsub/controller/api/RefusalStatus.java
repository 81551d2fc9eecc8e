package org.netpubsub.controller.api;

import org.netpubsub.controller.pubsub.Refused;

/** The HTTP status of each typed refusal: the one place a pub/sub refusal becomes a code. */
public final class RefusalStatus {
  private RefusalStatus() {}

  public static int of(Refused r) {
    return switch (r) {
      case Refused.Invalid i -> 400;
      case Refused.Unknown u -> 404;
      case Refused.Forbidden f -> 403;
      case Refused.Conflict c -> 409;
      // a conflict with the state the switches hold (another owner's entries): retrying the
      // same request fails the same way until that state changes
      case Refused.Unsafe u -> 409;
      case Refused.TooLarge t -> 413;
      case Refused.TooComplex t -> 422;
      case Refused.RateLimited l -> 429;
      case Refused.SwitchFailed f -> 502;
      case Refused.NotReady n -> 503;
      case Refused.Unavailable u -> 503;
      case Refused.Unacknowledged u -> 504;
    };
  }
}
