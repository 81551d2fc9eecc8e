/**
 * The base forwarding application as pure logic: from a {@link
 * org.netpubsub.network.topology.Topology} to the flow entries every switch should hold (IPv6
 * unicast on shortest paths, LLDP and neighbour discovery to the controller). A reconciler
 * elsewhere turns desired state into flow-mods. See docs/topology.md.
 */
package org.netpubsub.network.forwarding;
