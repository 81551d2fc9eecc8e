/**
 * The PLEROMA app of the controller: advertisement and subscription requests validated, admitted
 * and handed to the pure {@link org.netpubsub.network.pleroma.Configurator} on the controller loop;
 * the flow changes go out as barrier-acknowledged batches, and a request completes when every
 * switch it touched has acknowledged.
 */
package org.netpubsub.controller.pubsub;
