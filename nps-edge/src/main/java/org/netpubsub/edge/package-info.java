/**
 * What runs at the network's edge: broker agents, the edge coordinator and the
 * ZooKeeper-coordinated broker overlay (the client library is nps-client). Adapters with I/O beside
 * the pure classes they use (and nps-content).
 */
package org.netpubsub.edge;
