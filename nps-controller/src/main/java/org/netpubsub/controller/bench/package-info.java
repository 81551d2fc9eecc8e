/**
 * Measurements of the southbound: acknowledged flow-mods per second to OVS and to the simulated
 * switch.
 */
package org.netpubsub.controller.bench;
