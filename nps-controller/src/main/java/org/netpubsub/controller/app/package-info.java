/**
 * The controller application: a thin adapter that feeds southbound events into the pure discovery
 * and forwarding logic of nps-network on one thread. Its REST API is in {@code
 * org.netpubsub.controller.api}.
 */
package org.netpubsub.controller.app;
