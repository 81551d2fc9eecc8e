/**
 * How the edge agents ({@code broker}) and the overlay brokers ({@code overlay}) send datagrams:
 * the socket itself or, in experiments only, an emulated WAN (delay, jitter, loss per destination).
 * Both packages use it, and it uses neither, so they do not depend on each other through it.
 */
package org.netpubsub.edge.link;
