/**
 * A simulated network for tests (Faucet's fake OF table, grown to many switches): {@link
 * org.netpubsub.network.openflow.SimulatedSwitch}es wired by links as a {@link
 * org.netpubsub.network.topology.Topology} says, hosts at edge ports, and the question every
 * control application is tested with: which hosts does this packet reach, with which headers, and
 * what reaches the controller? See docs/topology.md.
 */
package org.netpubsub.network.sim;
