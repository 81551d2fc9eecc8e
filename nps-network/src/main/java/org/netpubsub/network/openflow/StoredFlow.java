package org.netpubsub.network.openflow;

/** A flow entry inside the simulated switch, with its bookkeeping (mutable, package-private). */
final class StoredFlow {
  FlowEntry entry;
  final long sequence;
  long installedAt;
  long lastUsedAt;
  long packetCount;

  StoredFlow(FlowEntry entry, long sequence, long now) {
    this.entry = entry;
    this.sequence = sequence;
    this.installedAt = now;
    this.lastUsedAt = now;
  }
}
