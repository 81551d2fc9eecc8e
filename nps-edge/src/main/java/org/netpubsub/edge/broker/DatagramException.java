package org.netpubsub.edge.broker;

/** A datagram that is not a valid edge message; {@link #reason} is a short counter name. */
public final class DatagramException extends Exception {
  private final String reason;

  public DatagramException(String reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  /** The counter this fault is dropped under, e.g. {@code truncated}, {@code bad_magic}. */
  public String reason() {
    return reason;
  }
}
