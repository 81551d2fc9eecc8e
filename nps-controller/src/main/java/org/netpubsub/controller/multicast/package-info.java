/**
 * SNAPS multicast groups in the running controller: the pure {@code
 * org.netpubsub.network.multicast.GroupForwarding} as a flow contributor whose changes are
 * acknowledged by the switches before a request answers (docs/multicast.md).
 */
package org.netpubsub.controller.multicast;
