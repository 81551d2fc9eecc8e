/**
 * What runs on hosts and at the network's edge: the pub/sub client library, broker agents and the
 * ZooKeeper-coordinated broker overlay. Adapters with I/O; the algorithms they use are pure code in
 * nps-content and nps-network.
 */
package org.netpubsub.edge;
