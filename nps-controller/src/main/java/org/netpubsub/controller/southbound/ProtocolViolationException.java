package org.netpubsub.controller.southbound;

/** Bytes from a peer that break the protocol; the connection is closed for {@link #reason}. */
public final class ProtocolViolationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final DisconnectReason reason;

  public ProtocolViolationException(DisconnectReason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  public DisconnectReason reason() {
    return reason;
  }
}
