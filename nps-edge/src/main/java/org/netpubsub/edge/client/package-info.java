/**
 * The pub/sub client library of a host (docs/clients.md): {@link
 * org.netpubsub.edge.client.ControllerClient} speaks the controller's REST API (docs/pubsub.md),
 * {@link org.netpubsub.edge.client.Publisher} sends events as one UDP datagram each to their
 * content address, {@link org.netpubsub.edge.client.Subscriber} receives, checks the exact filter
 * and delivers.
 */
package org.netpubsub.edge.client;
