/**
 * The OpenFlow 1.3 southbound: a Netty server that accepts switches, negotiates OpenFlow 1.3, keeps
 * each connection alive, sends acknowledged batches of flow-mods and group-mods (a barrier per
 * batch), reads flow and group tables, and reconciles a switch's tables with the controller's
 * desired state when it (re)connects. Messages are encoded and decoded by openflowj; {@link
 * org.netpubsub.controller.southbound.OpenFlowTranslator} maps them to and from the pure model of
 * {@code org.netpubsub.network.openflow}. See docs/southbound.md.
 */
package org.netpubsub.controller.southbound;
