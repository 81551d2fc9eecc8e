/**
 * The pub/sub client library of a host (docs/clients.md): {@link
 * org.netpubsub.client.ControllerClient} speaks the controller's REST API (docs/pubsub.md), {@link
 * org.netpubsub.client.Publisher} sends events as one UDP datagram each to their content address,
 * {@link org.netpubsub.client.Subscriber} receives, checks the exact filter and delivers.
 */
package org.netpubsub.client;
