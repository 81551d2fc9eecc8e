package org.netpubsub.network.openflow;

/**
 * The simulated switch's bucket choice for select groups: a weighted pick by a hash of the packet's
 * headers, so that one flow of packets always takes one bucket and tests are reproducible. (Real
 * switches use their own hash; compare with {@link SimulatedSwitch#possibleForwardings}.)
 */
final class SelectHash {
  private SelectHash() {}

  /** The index into {@code weights} (all &gt; 0) that these headers pick. */
  static int pick(PacketHeaders h, int[] weights) {
    long total = 0;
    for (int w : weights) {
      total += w;
    }
    long r = Long.remainderUnsigned(hash(h), total);
    for (int i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) {
        return i;
      }
    }
    throw new IllegalStateException("unreachable");
  }

  static long hash(PacketHeaders h) {
    long x = mix(h.ethType());
    x = mix(x ^ h.ipv6Src().high());
    x = mix(x ^ h.ipv6Src().low());
    x = mix(x ^ h.ipv6Dst().high());
    x = mix(x ^ h.ipv6Dst().low());
    x = mix(x ^ h.ipProto());
    return mix(x ^ ((long) h.udpSrc() << 16 | h.udpDst()));
  }

  /** SplitMix64's finalizer. */
  private static long mix(long z) {
    z += 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
