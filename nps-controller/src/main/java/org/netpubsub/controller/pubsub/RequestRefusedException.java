package org.netpubsub.controller.pubsub;

import java.util.OptionalLong;

/** A pub/sub request refused: carries its typed {@link Refused} reason. */
public final class RequestRefusedException extends RuntimeException {
  private final Refused refused;

  public RequestRefusedException(Refused refused) {
    super(refused.reason(), null, false, false);
    this.refused = refused;
  }

  public Refused refused() {
    return refused;
  }

  public OptionalLong retryAfterSeconds() {
    return refused.retryAfterSeconds();
  }
}
