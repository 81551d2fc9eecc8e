package org.netpubsub.controller.pubsub;

import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/** A request sent with an idempotency key and its outcome, which a repeat of the key answers. */
record Keyed(PubSubRequest request, CompletableFuture<RequestOutcome> done) {

  /**
   * A repeat of the key: the first request's outcome if {@code r} is the same request (kind, host,
   * port, normal form), a {@link Refused.Conflict} otherwise. {@code elapsed}: the repeat's time so
   * far.
   */
  CompletableFuture<RequestOutcome> repeat(PubSubRequest r, String key, LongSupplier elapsed) {
    PubSubRequest first = request;
    if (!(first.kind() == r.kind()
        && first.host().equals(r.host())
        && first.port() == r.port()
        && first.normalForm().equals(r.normalForm()))) {
      return CompletableFuture.failedFuture(
          new RequestRefusedException(
              new Refused.Conflict(
                  "Idempotency-Key "
                      + key
                      + " was used for another request ("
                      + first.id()
                      + ")")));
    }
    return done.thenApply(o -> new RequestOutcome(first, 0, 0, 0, elapsed.getAsLong()));
  }
}
