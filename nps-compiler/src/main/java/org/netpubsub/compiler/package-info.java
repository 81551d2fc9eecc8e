/**
 * The packet-subscription compiler (Camus, CoNEXT '20 §5): rules {@code FILTER : fwd(P, …)} over
 * the query fields of a message spec become a multi-terminal BDD ({@code bdd}), which is sliced
 * into one match-action table per field plus a leaf table ({@code pipeline}); {@code target} runs
 * or emits the tables. Pure: no I/O, no threads, no clock.
 */
package org.netpubsub.compiler;
