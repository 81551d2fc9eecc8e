/**
 * Topology discovery as pure code: the LLDP and IPv6 neighbour-discovery frame codecs, and state
 * machines that take the time and the frames the switches punt to the controller and return the
 * packet-outs to send and the {@link org.netpubsub.network.topology.TopologyChange}s they imply.
 * The southbound adapter only carries bytes. See docs/topology.md.
 */
package org.netpubsub.network.discovery;
