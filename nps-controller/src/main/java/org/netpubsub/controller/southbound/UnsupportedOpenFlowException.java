package org.netpubsub.controller.southbound;

/**
 * An OpenFlow message or field that the pure model cannot represent (a match field, action or
 * instruction netpubsub does not use), named in the message.
 */
public final class UnsupportedOpenFlowException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UnsupportedOpenFlowException(String message) {
    super(message);
  }
}
