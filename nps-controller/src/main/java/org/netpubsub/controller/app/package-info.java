/**
 * The controller application: a thin adapter that feeds southbound events into the pure discovery
 * and forwarding logic of nps-network on one thread, and serves the result over REST.
 */
package org.netpubsub.controller.app;
