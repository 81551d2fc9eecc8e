package org.netpubsub.edge.broker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;

/**
 * What every broker side of the agent answers from its {@link AgentCore}: the broker-neutral half
 * of {@link EdgeAgent}. Subclasses add their broker and {@link #close}.
 */
abstract class CoreBackedAgent<L extends LocalFilters> implements EdgeAgent {
  final AgentCore<L> core;

  CoreBackedAgent(AgentCore<L> core) {
    this.core = core;
  }

  @Override
  public String edge() {
    return core.edge;
  }

  @Override
  public InetSocketAddress datagramAddress() {
    return core.datagramAddress();
  }

  @Override
  public String mode() {
    return core.mode();
  }

  @Override
  public AgentStats stats() {
    return core.stats();
  }

  @Override
  public Set<String> acknowledgedFilters() {
    return core.reporter().acknowledged();
  }

  @Override
  public boolean reportsPending() {
    return core.reporter().pending();
  }

  @Override
  public void senderKeys(java.util.Map<String, org.netpubsub.edge.link.DatagramAuth> keys) {
    core.keys().senders(keys);
  }

  @Override
  public void revokeEdges(Set<String> edges) {
    core.keys().revoke(edges);
  }

  @Override
  public void leave() throws IOException {
    core.leave();
  }
}
