/**
 * Nasdaq market data on the wire (Camus §6, §7.1): MoldUDP64 downstream packets and ITCH 5.0
 * messages, decoded straight into the query-field values of {@code BuiltinSpecs.itch()}, and split
 * into per-port packets that carry only the messages each port's filters want.
 *
 * <p>Pure: no I/O, no threads, no clock. Decoders never throw on bytes: malformed input is counted
 * and dropped with a {@link org.netpubsub.compiler.itch.Malformation}. The hot path (framing,
 * decoding, pipeline, split) allocates nothing per message.
 */
package org.netpubsub.compiler.itch;
