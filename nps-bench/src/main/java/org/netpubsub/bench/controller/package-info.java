/**
 * Measurements of the southbound: acknowledged flow-mods per second to OVS and to the simulated
 * switch, the PLEROMA control plane on simulated switches, and {@link
 * org.netpubsub.bench.controller.Cbench}, a cbench-like packet-in load generator for a controller's
 * northbound.
 */
package org.netpubsub.bench.controller;
