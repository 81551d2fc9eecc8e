package org.netpubsub.edge.broker;

/** A topic filter became present at (or absent from) this edge's broker. */
public record FilterChange(String filter, boolean present) {}
