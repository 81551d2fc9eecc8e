package org.netpubsub.controller.controlplane;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;

/**
 * How a configurator carries out one part's flow changes (PLEROMA §IV-B), in one process or in a
 * cluster: every switch's batch leaves at once, then every acknowledgement is awaited within the
 * timeout from sending. A switch that does not acknowledge in time holds an unknown state of the
 * partition's flows, so they are read back and corrected ({@link FlowUpdates#resync} to {@code
 * desired}) until a correction is acknowledged; the caller's partition waits meanwhile.
 */
final class AcknowledgedSend {
  private AcknowledgedSend() {}

  /**
   * Returns the number of flow-mods sent. InterruptedException once {@code active} turns false
   * while a switch is still silent.
   */
  static int sendAndAwait(
      FlowUpdates updates,
      SortedMap<Long, List<FlowMod>> mods,
      long epoch,
      Dz partition,
      LongFunction<List<FlowEntry>> desired,
      Duration timeout,
      BooleanSupplier active,
      Runnable onResync)
      throws InterruptedException {
    long[] dpids = new long[mods.size()];
    List<CompletableFuture<Void>> acks = new ArrayList<>(mods.size());
    int n = 0;
    for (Map.Entry<Long, List<FlowMod>> e : mods.entrySet()) {
      dpids[acks.size()] = e.getKey();
      acks.add(updates.send(e.getKey(), e.getValue(), epoch));
      n += e.getValue().size();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < dpids.length; i++) {
      CompletableFuture<Void> ack = acks.get(i);
      while (!acknowledged(ack, deadline, active)) {
        onResync.run();
        ack = updates.resync(dpids[i], ControlPlane.owned(partition), desired.apply(dpids[i]));
        deadline = System.nanoTime() + timeout.toNanos();
      }
    }
    return n;
  }

  private static boolean acknowledged(
      CompletableFuture<Void> ack, long deadline, BooleanSupplier active)
      throws InterruptedException {
    try {
      ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      if (!active.getAsBoolean()) {
        throw new InterruptedException("stopped while waiting for a switch");
      }
      return false;
    }
  }
}
