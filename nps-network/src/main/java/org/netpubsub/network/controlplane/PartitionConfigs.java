package org.netpubsub.network.controlplane;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.EventEgress;
import org.netpubsub.network.topology.Topology;

/**
 * The k CP-configs of a partitioned control plane: one {@link Configurator} per partition, each
 * holding only the flows of its subspace. Flows of different partitions never overlap, so the
 * switch tables are the plain union, and configurators owning different partitions may change the
 * same switch concurrently without conflict (PLEROMA Definition 1). Each CP-config must have one
 * owner at a time; this class itself is not thread-safe.
 */
public final class PartitionConfigs {
  private final Partitions partitions;
  private final Map<Dz, Configurator> configs = new LinkedHashMap<>();

  private PartitionConfigs(Partitions partitions, Map<Dz, Configurator> configs) {
    this.partitions = partitions;
    this.configs.putAll(configs);
  }

  /** Empty CP-configs for every partition on the topology's central tree. */
  public static PartitionConfigs on(Topology topology, Partitions partitions) {
    Map<Dz, Configurator> m = new LinkedHashMap<>();
    for (Dz p : partitions.all()) {
      m.put(p, Configurator.on(topology));
    }
    return new PartitionConfigs(partitions, m);
  }

  /** The same requests replayed on the next topology (switch failure or recovery). */
  public PartitionConfigs rebuiltOn(Topology next) {
    Map<Dz, Configurator> m = new LinkedHashMap<>();
    configs.forEach((p, c) -> m.put(p, c.rebuiltOn(next)));
    return new PartitionConfigs(partitions, m);
  }

  public Partitions partitions() {
    return partitions;
  }

  /** The CP-config of one partition. */
  public Configurator config(Dz partition) {
    Configurator c = configs.get(partition);
    if (c == null) {
      throw new IllegalArgumentException("no partition " + partition);
    }
    return c;
  }

  /** One switch's content flows over all partitions. */
  public SortedMap<Dz, SortedSet<EventEgress>> table(long dpid) {
    SortedMap<Dz, SortedSet<EventEgress>> out = new TreeMap<>();
    for (Configurator c : configs.values()) {
      out.putAll(c.table(dpid));
    }
    return Collections.unmodifiableSortedMap(out);
  }

  /** One switch's content flows as OpenFlow entries. */
  public List<FlowEntry> flows(long dpid) {
    return new ArrayList<>(ContentFlows.entries(table(dpid)));
  }

  public int flowCount() {
    return configs.values().stream().mapToInt(Configurator::flowCount).sum();
  }
}
