package org.netpubsub.network.layout;

/** The writers of a switch's flows and groups; each owns one {@link FlowSpace}. */
public enum Owner {
  /** LLDP and neighbour discovery to the controller (the base forwarding app emits them). */
  DISCOVERY,
  /** Unicast routes to known hosts, or the reactive table miss. */
  BASE_FORWARDING,
  /** PLEROMA's content flows. */
  PUBSUB_CONTENT,
  /** Camus's compiled pipeline (its table-0 entry, its field and leaf tables, its groups). */
  CAMUS_PIPELINE,
  /** Multicast trees: segment flows and their groups. */
  MULTICAST_GROUPS,
  /** Drops of content addresses a host port may not publish to (docs/security.md). */
  INGRESS,
  /** Flows apps on the northbound bus keep in the desired state. */
  NORTHBOUND_APPS
}
