/**
 * The northbound bus at run time (EMD, issue 7): packet-ins from the southbound are classified once
 * ({@link org.netpubsub.network.nbi.TopicClassifier}) and queued only to the apps whose topics they
 * match, or to every app in the broadcast baseline; what apps send back passes the duplicate
 * packet-out filter and the invariant checker before it reaches a switch. Apps run in-process
 * ({@link org.netpubsub.controller.nbi.ControllerApp}) or as separate processes over ZeroMQ ({@link
 * org.netpubsub.controller.nbi.RemoteAppClient}); both kinds share one classifier.
 */
package org.netpubsub.controller.nbi;
