/**
 * The flow service's invariant checker (EMD §4.3, VeriFlow as model): packet classes of the {@code
 * ipv6_dst} header space, and a walk of each class a change touches through the real tables
 * (priorities, masks, goto, groups; the simulated switch's {@code openflow.Pipeline} under the
 * checker's policy) that finds loops and black holes. Pure: no I/O, no clock. Depends on the
 * OpenFlow model and the topology.
 */
package org.netpubsub.network.invariants;
