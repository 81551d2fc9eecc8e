/**
 * OpenFlow 1.3 flow tables and groups as netpubsub uses them (the controller's pure logic emits
 * {@link org.netpubsub.network.openflow.FlowMod} and {@link
 * org.netpubsub.network.openflow.GroupMod}), a {@link
 * org.netpubsub.network.openflow.SimulatedSwitch} that applies them like Open vSwitch does
 * (Faucet's "fake OF table"), and the {@code ovs-ofctl} text syntax. See docs/network-model.md.
 */
package org.netpubsub.network.openflow;
