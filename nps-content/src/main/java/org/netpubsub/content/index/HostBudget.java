package org.netpubsub.content.index;

/**
 * The flow budget a layout is designed for (docs/content-model.md, "Designing for a flow budget"):
 * a host holds {@code subscriptionsPerHost} subscriptions and its edge switch at most {@code
 * maxFlows} content flows, the union of its subscriptions' covers merged by {@link FlowBudget}.
 */
public record HostBudget(int subscriptionsPerHost, int maxFlows) {
  public HostBudget {
    if (subscriptionsPerHost < 1) {
      throw new IllegalArgumentException(
          "subscriptions per host must be at least 1, got " + subscriptionsPerHost);
    }
    if (maxFlows < 1) {
      throw new IllegalArgumentException("max flows must be at least 1, got " + maxFlows);
    }
  }

  /**
   * The budget of a group of {@code size} sample subscriptions standing in for a host: F scaled by
   * the share of a host's subscriptions the group holds (a sample smaller than one host), at least
   * 1.
   */
  int flowsFor(int size) {
    if (size >= subscriptionsPerHost) {
      return maxFlows;
    }
    return (int) Math.max(1, (long) maxFlows * size / subscriptionsPerHost);
  }
}
