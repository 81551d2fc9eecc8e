package org.netpubsub.compiler.itch;

/**
 * Receives packets for one output port. The bytes are valid only during the call (the producer
 * reuses its buffer): copy what must outlive it.
 */
@FunctionalInterface
public interface PacketSink {
  void packet(int port, byte[] buf, int off, int len);
}
