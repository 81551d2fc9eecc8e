package org.netpubsub.controller.southbound;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;

/**
 * Reconciles one switch: reads its flows and groups (two multipart requests in flight at once),
 * plans with {@link Reconciler} within a scope, and sends the plan as one acknowledged batch —
 * nothing if the switch already holds the desired state.
 */
final class ReconcileTask {
  private ReconcileTask() {}

  static CompletableFuture<ReconcileResult> run(
      SwitchHandle sw, DesiredState desired, ReconcileScope scope) {
    long start = System.nanoTime();
    CompletableFuture<List<FlowEntry>> flows = sw.flowStats();
    CompletableFuture<List<GroupEntry>> groups = sw.groupDesc();
    return flows
        .thenCombine(groups, (f, g) -> new Actual(f, g))
        .thenCompose(
            actual -> {
              ReconcilePlan plan = Reconciler.plan(desired, actual.flows, actual.groups, scope);
              if (plan.isEmpty()) {
                return CompletableFuture.completedFuture(result(sw, plan, actual, start));
              }
              return sw.apply(plan.mods()).thenApply(b -> result(sw, plan, actual, start));
            });
  }

  private record Actual(List<FlowEntry> flows, List<GroupEntry> groups) {}

  private static ReconcileResult result(
      SwitchHandle sw, ReconcilePlan plan, Actual actual, long start) {
    return new ReconcileResult(
        sw.dpid(),
        plan,
        actual.flows.size(),
        actual.groups.size(),
        Duration.ofNanos(System.nanoTime() - start));
  }
}
