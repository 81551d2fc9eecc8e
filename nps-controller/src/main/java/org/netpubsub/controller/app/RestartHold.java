package org.netpubsub.controller.app;

import java.util.function.Consumer;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.Topology;

/**
 * A restarted controller's hold on reconciles (docs/controller.md, "Restart"): the switches keep
 * their tables while the controller is away, and a reconcile on a half-learnt topology (the first
 * switch alone, before any link or host) would rewrite them to that topology's tables and back. So
 * no switch is reconciled until the apps have restored their requests ({@link #restored}) and the
 * topology the tables were built on ({@code expected}: the last settled one, from the store) has
 * come back — every switch connected, every link rediscovered; its hosts are put back as their
 * switches appear, as hosts registered by hand are — or until {@code waitMillis} has passed (a
 * switch that never returns). Then every connected switch is reconciled once, and from then on each
 * settled topology goes to {@code settled} (the store). Confined to the controller loop.
 */
public final class RestartHold {
  private final Topology expected;
  private final long waitMillis;
  private final Consumer<Topology> settled;
  private long deadline = -1; // set when the controller starts
  private boolean restored;
  private volatile boolean released; // read by tests off the loop

  public RestartHold(Topology expected, long waitMillis, Consumer<Topology> settled) {
    if (waitMillis < 0) {
      throw new IllegalArgumentException("the restart wait must be 0 or more, not " + waitMillis);
    }
    this.expected = expected;
    this.waitMillis = waitMillis;
    this.settled = settled;
  }

  void start(long nowMillis) {
    deadline = nowMillis + waitMillis;
  }

  /** The apps hold their requests again: the hold may end. */
  void restored() {
    restored = true;
  }

  /** Whether reconciles are held now. */
  public boolean holding() {
    return !released;
  }

  /** {@code t} with the expected hosts whose switch is known and whose port is an edge port. */
  Topology withExpectedHosts(Topology t) {
    if (released) {
      return t;
    }
    Topology out = t;
    for (Host h : expected.hosts().values()) {
      if (out.host(h.address()).isEmpty()
          && out.hasSwitch(h.attachment().dpid())
          && out.linkAt(h.attachment()).isEmpty()) {
        out = out.addHost(h);
      }
    }
    return out;
  }

  /**
   * Whether the hold ends now, with the topology {@code now} (true once: the caller reconciles
   * every connected switch then). Every settled topology after goes to the store.
   */
  boolean release(Topology now, java.util.Set<Long> connected, long nowMillis) {
    if (released) {
      settled.accept(now);
      return false;
    }
    if (!restored || (!back(now, connected) && nowMillis < deadline)) {
      return false;
    }
    released = true;
    settled.accept(now);
    return true;
  }

  /** Every expected switch connected, every expected link and host known as it was. */
  private boolean back(Topology now, java.util.Set<Long> connected) {
    if (!connected.containsAll(expected.switches())) {
      return false;
    }
    for (Link l : expected.links()) {
      if (!now.links().contains(l)) {
        return false;
      }
    }
    for (Host h : expected.hosts().values()) {
      if (!now.host(h.address()).equals(java.util.Optional.of(h))) {
        return false;
      }
    }
    return true;
  }
}
