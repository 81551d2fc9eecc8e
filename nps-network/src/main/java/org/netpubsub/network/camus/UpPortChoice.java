package org.netpubsub.network.camus;

import java.util.SortedSet;

/**
 * Which physical port a message sent to the logical up port leaves by (Camus §4 leaves it to the
 * switch: random, round-robin, or ECMP for flows). Any choice is correct on a {@link Hierarchy}, so
 * it only spreads load.
 */
@FunctionalInterface
public interface UpPortChoice {
  /** One of {@code upPorts} (never empty) for a message with these query field values. */
  long choose(long dpid, SortedSet<Long> upPorts, long[] values);

  /**
   * A hash of the switch and the message's query field values, as ECMP hashes a flow's headers: the
   * same message always takes the same path (reproducible experiments and test-bed runs), and
   * different messages spread over the up links. A P4 switch computes it with a hash extern over
   * the parsed fields; an OpenFlow switch gets the same effect from a select group.
   */
  static UpPortChoice byHash() {
    return (dpid, upPorts, values) -> {
      long h = dpid * 0x9E3779B97F4A7C15L;
      for (long v : values) {
        h = (h ^ v) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
      }
      int i = (int) Math.floorMod(h, (long) upPorts.size());
      for (long p : upPorts) {
        if (i-- == 0) {
          return p;
        }
      }
      throw new AssertionError();
    };
  }
}
