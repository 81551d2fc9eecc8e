package org.netpubsub.controller.pubsub;

import java.util.OptionalLong;

/**
 * A pub/sub request refused, with the HTTP status that says why: 400 bad input, 404 unknown id, 409
 * unknown host, 413 too large, 429 too many (with a retry delay), 503 no network yet, 504 the
 * switches did not acknowledge in time.
 */
public final class RequestRefusedException extends RuntimeException {
  private final int status;
  private final OptionalLong retryAfterSeconds;

  public RequestRefusedException(int status, String reason) {
    this(status, reason, OptionalLong.empty());
  }

  public RequestRefusedException(int status, String reason, OptionalLong retryAfterSeconds) {
    super(reason, null, false, false);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public int status() {
    return status;
  }

  public OptionalLong retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
