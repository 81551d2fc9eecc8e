package org.netpubsub.network.topology;

import java.util.Comparator;

/**
 * An undirected switch-to-switch link between two ports; {@code a} is the lower end, so a link
 * equals itself read backwards. Two switches may be joined by several (parallel) links.
 */
public record Link(SwitchPort a, SwitchPort b) implements Comparable<Link> {
  private static final Comparator<Link> ORDER =
      Comparator.comparing(Link::a).thenComparing(Link::b);

  public Link {
    if (a == null || b == null) {
      throw new IllegalArgumentException("a link has two ends");
    }
    if (a.equals(b)) {
      throw new IllegalArgumentException("a link joins two different ports: " + a);
    }
    if (a.compareTo(b) > 0) {
      SwitchPort t = a;
      a = b;
      b = t;
    }
  }

  public static Link of(long dpidA, long portA, long dpidB, long portB) {
    return new Link(new SwitchPort(dpidA, portA), new SwitchPort(dpidB, portB));
  }

  /** True if one end is this port. */
  public boolean has(SwitchPort end) {
    return a.equals(end) || b.equals(end);
  }

  /** The end opposite {@code end}; IllegalArgumentException if {@code end} is not an end. */
  public SwitchPort peer(SwitchPort end) {
    if (a.equals(end)) {
      return b;
    }
    if (b.equals(end)) {
      return a;
    }
    throw new IllegalArgumentException(end + " is not an end of " + this);
  }

  /** The link traversed from {@code end} to its peer. */
  public Hop from(SwitchPort end) {
    return new Hop(end, peer(end));
  }

  @Override
  public int compareTo(Link o) {
    return ORDER.compare(this, o);
  }

  @Override
  public String toString() {
    return a + "-" + b;
  }
}
