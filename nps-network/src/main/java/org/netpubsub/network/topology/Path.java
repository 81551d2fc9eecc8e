package org.netpubsub.network.topology;

import java.util.ArrayList;
import java.util.List;

/** A walk between two switches as the hops it takes; no hops if it starts where it ends. */
public record Path(long from, long to, List<Hop> hops) {
  public Path {
    hops = List.copyOf(hops);
    long at = from;
    for (Hop h : hops) {
      if (h.from().dpid() != at) {
        throw new IllegalArgumentException("hops do not chain at " + Long.toHexString(at));
      }
      at = h.to().dpid();
    }
    if (at != to) {
      throw new IllegalArgumentException("hops end at " + Long.toHexString(at));
    }
  }

  /** The number of links crossed. */
  public int length() {
    return hops.size();
  }

  /** The switches visited, {@code from} first, {@code to} last. */
  public List<Long> switches() {
    List<Long> out = new ArrayList<>(hops.size() + 1);
    out.add(from);
    hops.forEach(h -> out.add(h.to().dpid()));
    return out;
  }

  @Override
  public String toString() {
    return hops.isEmpty() ? "[" + Long.toHexString(from) + "]" : hops.toString();
  }
}
