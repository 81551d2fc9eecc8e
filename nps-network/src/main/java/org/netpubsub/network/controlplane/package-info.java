/**
 * PLEROMA's scalable control plane (§IV): the event space cut into disjoint partitions, each with
 * its own CP-config; a dispatcher that splits requests at partition borders; greedy partition
 * assignment and overload-driven migration between configurators (SPA-LB); and reordering of
 * request slices by covering to save flow operations (§IV-C). Pure: no I/O, no threads, no clock;
 * the runtime that drives it lives in nps-controller.
 */
package org.netpubsub.network.controlplane;
