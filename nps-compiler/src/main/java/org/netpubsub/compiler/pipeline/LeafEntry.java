package org.netpubsub.compiler.pipeline;

/**
 * The leaf table: a message that ends in BDD state {@code state} goes to multicast {@code group}.
 */
public record LeafEntry(int state, int group) {}
