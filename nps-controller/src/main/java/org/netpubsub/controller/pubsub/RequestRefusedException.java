package org.netpubsub.controller.pubsub;

import java.util.OptionalLong;

/** A pub/sub request refused: carries its typed {@link Refused} reason. */
public final class RequestRefusedException extends RuntimeException {
  private final Refused refused;

  public RequestRefusedException(Refused refused) {
    super(refused.reason(), null, false, false);
    this.refused = refused;
  }

  /** A request of another principal (to withdraw, or another's Idempotency-Key). */
  static RequestRefusedException notOwned(String id) {
    return new RequestRefusedException(
        new Refused.Forbidden("request " + id + " belongs to another principal"));
  }

  static RequestRefusedException unknown(String id) {
    return new RequestRefusedException(new Refused.Unknown("no request " + id));
  }

  public Refused refused() {
    return refused;
  }

  public OptionalLong retryAfterSeconds() {
    return refused.retryAfterSeconds();
  }
}
