package org.netpubsub.network.multicast;

public enum TreeStrategy {
  DIRECT,
  RENDEZVOUS_POINT
}
