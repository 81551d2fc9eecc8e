package org.netpubsub.controller.pubsub;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Writes a loop engine's standing requests to a {@link StandingStore} before they are answered: an
 * addition that stands (carried out, or refused in a way that leaves it standing, such as a
 * switch's late acknowledgement) is committed before its 201, a withdrawal's row is deleted before
 * its answer. A request refused outright is never written. A crash before the commit leaves the
 * store without the request and its client without an answer, so the restarted controller's
 * reconcile takes its flows off again; after it the request survives whole.
 */
final class StandingJournal {
  private final StandingStore store;
  private final Function<String, String> owner; // a live request's principal ("" for none)

  StandingJournal(StandingStore store, Function<String, String> owner) {
    this.store = store;
    this.owner = owner;
  }

  CompletableFuture<RequestOutcome> record(
      PubSubRequest r, boolean withdraw, CompletableFuture<RequestOutcome> done) {
    return done.handle((o, err) -> err)
        .thenCompose(
            err -> {
              CompletableFuture<Void> write;
              if (withdraw) {
                write = store.removed(r.id());
              } else if (err == null || !refusal(err)) {
                write = store.added(row(r, owner.apply(r.id())));
              } else {
                write = CompletableFuture.completedFuture(null);
              }
              return write.thenCompose(v -> done);
            });
  }

  /**
   * A re-cut (RegionRecut): the row takes the new region once the replacement stands, and goes if
   * the request was withdrawn for it; a replacement not carried out leaves the row.
   */
  CompletableFuture<RequestOutcome> replaced(
      PubSubRequest next, CompletableFuture<RequestOutcome> done) {
    return done.handle((o, err) -> RegionRecut.result(err))
        .thenCompose(
            res ->
                (switch (res) {
                      case RECUT -> relabelled(next);
                      case WITHDRAWN -> store.removed(next.id());
                      case KEPT, GONE -> CompletableFuture.<Void>completedFuture(null);
                    })
                    .thenCompose(v -> done));
  }

  /** The row takes {@code next}'s region (its cover unchanged); completes once committed. */
  CompletableFuture<Void> relabelled(PubSubRequest next) {
    return store.replaced(row(next, owner.apply(next.id())));
  }

  static StandingStore.Row row(PubSubRequest r, String owner) {
    return new StandingStore.Row(
        r.id(), r.kind(), r.host().toString(), r.port(), r.filter(), r.region(), owner);
  }

  /** Refused so that it does not stand (PubSubService forgets it then, too). */
  private static boolean refusal(Throwable err) {
    Throwable cause = err instanceof CompletionException c ? c.getCause() : err;
    return cause instanceof RequestRefusedException r && !r.refused().requestStands();
  }
}
