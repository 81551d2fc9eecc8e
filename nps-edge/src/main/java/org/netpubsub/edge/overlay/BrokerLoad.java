package org.netpubsub.edge.overlay;

/** A live routing broker's load as the leader sees it: assigned topics and relayed messages/s. */
public record BrokerLoad(String broker, int topics, double rate) {}
