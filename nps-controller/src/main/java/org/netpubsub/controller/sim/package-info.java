/**
 * A simulated OpenFlow 1.3 switch that speaks the real protocol over TCP: it connects to a
 * controller like Open vSwitch does and keeps its tables in nps-network's {@link
 * org.netpubsub.network.openflow.SimulatedSwitch}. For tests, benchmarks and scale experiments; see
 * docs/southbound.md.
 */
package org.netpubsub.controller.sim;
