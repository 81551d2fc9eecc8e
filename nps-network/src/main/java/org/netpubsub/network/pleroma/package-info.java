/**
 * PLEROMA's in-network content-based pub/sub (§III): the {@link
 * org.netpubsub.network.pleroma.Configurator} keeps advertisements and subscriptions on a spanning
 * tree (Algorithm 1), each switch's content flows in a {@link
 * org.netpubsub.network.pleroma.ContentTable} that applies the covering cases of {@code
 * flowAddition} and the downgrades of unsubscription incrementally, and {@link
 * org.netpubsub.network.pleroma.ContentFlows} renders them as OpenFlow entries on {@code ff0e::/16}
 * prefixes. Pure: no I/O, no threads, no clock.
 */
package org.netpubsub.network.pleroma;
