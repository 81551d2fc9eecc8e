package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.controller.app.RestartHold;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.network.multicast.GroupSpec;

/**
 * The multicast groups put through {@code /v1/groups} kept in a {@link StandingStore}
 * (docs/controller.md, "Restart"): the stored ones join the trees before the restart's hold may
 * end, each later put or delete is committed (one transaction, on the store's thread) before its
 * answer, and changes wait with 503 while the hold lasts, as pub/sub additions do.
 */
public final class StoredGroups {
  private StoredGroups() {}

  /**
   * Restores {@code groups} from the store's rows; must complete before the routing's restore
   * ({@link StoredRouting}) tells the controller its apps are back.
   */
  public static void restore(
      MulticastGroups groups, StandingStore store, List<GroupSpec> stored, RestartHold hold) {
    groups
        .restore(
            stored,
            new MulticastGroups.Journal() {
              @Override
              public CompletableFuture<Void> put(GroupSpec spec) {
                return store.groupPut(spec);
              }

              @Override
              public CompletableFuture<Void> removed(String name) {
                return store.groupRemoved(name);
              }
            },
            () ->
                hold.holding()
                    ? "the controller is restoring its stored topology after a restart"
                    : null)
        .join();
  }
}
