package org.netpubsub.network.topology;

/** A link traversed in one direction: out of {@code from}, into {@code to}. */
public record Hop(SwitchPort from, SwitchPort to) {
  public Hop {
    if (from == null || to == null || from.equals(to)) {
      throw new IllegalArgumentException("a hop joins two different ports");
    }
  }

  public Link link() {
    return new Link(from, to);
  }

  @Override
  public String toString() {
    return from + "->" + to;
  }
}
