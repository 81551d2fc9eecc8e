package org.netpubsub.network.topology;

/**
 * One change to a {@link Topology}, as discovery reports it: the controller applies it ({@link
 * Topology#apply}) and recomputes what depends on the topology.
 */
public sealed interface TopologyChange {

  /** A switch-to-switch link appeared (LLDP seen for the first time). */
  record LinkAdded(Link link) implements TopologyChange {}

  /** A link went away (port down, LLDP expired, switch gone, or re-cabled). */
  record LinkRemoved(Link link) implements TopologyChange {}

  /** A host appeared at an edge port. */
  record HostAdded(Host host) implements TopologyChange {}

  /** A known address showed up elsewhere or with another MAC. */
  record HostMoved(Host from, Host to) implements TopologyChange {}

  /** A host was forgotten. */
  record HostRemoved(Host host) implements TopologyChange {}
}
