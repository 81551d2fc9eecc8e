package org.netpubsub.content.event;

/**
 * The fixed-size header of an encoded event (see {@link EventCodec}): what a router or agent reads
 * without decoding the attribute values.
 */
public record EventHeader(
    int version, int schemaId, long publisherId, long sequence, long timestampNanos) {
  /** Bytes: version, flags, schema id, publisher id, sequence, timestamp. */
  public static final int SIZE = 1 + 1 + 4 + 8 + 8 + 8;
}
