package org.netpubsub.network.openflow;

import java.util.List;

/**
 * A group bucket: weight (select groups only; 0 elsewhere), the port and group whose liveness it
 * watches (fast-failover and select; {@link OfPort#ANY} / {@link FlowMod#ANY_GROUP} = none), and
 * the actions applied to the packet (changes stay within the bucket).
 */
public record Bucket(int weight, long watchPort, long watchGroup, List<Action> actions) {
  public Bucket {
    FlowMod.checkU16(weight, "bucket weight");
    actions = List.copyOf(actions);
  }

  /** A bucket of an ALL or INDIRECT group. */
  public static Bucket of(Action... actions) {
    return new Bucket(0, OfPort.ANY, FlowMod.ANY_GROUP, List.of(actions));
  }

  /** A bucket of a SELECT group. */
  public static Bucket weighted(int weight, Action... actions) {
    return new Bucket(weight, OfPort.ANY, FlowMod.ANY_GROUP, List.of(actions));
  }

  /** A bucket of a fast-failover group, live while {@code watchPort} is. */
  public static Bucket watching(long watchPort, Action... actions) {
    return new Bucket(0, watchPort, FlowMod.ANY_GROUP, List.of(actions));
  }

  /** True if the bucket watches a port or a group. */
  public boolean hasLiveness() {
    return watchPort != OfPort.ANY || watchGroup != FlowMod.ANY_GROUP;
  }
}
