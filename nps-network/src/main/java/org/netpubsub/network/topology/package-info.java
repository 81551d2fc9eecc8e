/**
 * The network as the controller sees it: switches and their ports, undirected (possibly parallel)
 * switch-to-switch links, hosts at edge ports. {@link org.netpubsub.network.topology.Topology} is
 * an immutable value with builder-style updates and the path queries routing needs (BFS shortest
 * paths with a stable tie-break, next hops, the shortest-path spanning tree from the central switch
 * that PLEROMA's configurators use). See docs/topology.md.
 */
package org.netpubsub.network.topology;
