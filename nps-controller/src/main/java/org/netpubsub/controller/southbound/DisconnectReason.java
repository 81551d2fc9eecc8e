package org.netpubsub.controller.southbound;

/** Why a switch connection ended; {@link SouthboundMetrics} counts each. */
public enum DisconnectReason {
  /** The switch closed the TCP connection. */
  CLOSED_BY_SWITCH,
  /** {@link SwitchHandle#disconnect} or the server closing. */
  CLOSED_BY_CONTROLLER,
  /** Nothing received for the dead-peer timeout, echo requests included. */
  DEAD_PEER,
  /** The handshake (hello, features, ports, config) did not finish in time. */
  HANDSHAKE_TIMEOUT,
  /** No common OpenFlow version: the switch does not speak OpenFlow 1.3 (HELLO_FAILED sent). */
  HELLO_FAILED,
  /** A message with another version than the negotiated one. */
  WRONG_VERSION,
  /** Bytes that are no OpenFlow frame (a length field shorter than the header). */
  MALFORMED_FRAME,
  /** A frame longer than the configured maximum message size. */
  MESSAGE_TOO_LARGE,
  /** An OpenFlow 1.3 frame that openflowj cannot parse. */
  UNPARSABLE_MESSAGE,
  /** A message that has no place in the protocol at this point (a second features reply...). */
  PROTOCOL_VIOLATION,
  /**
   * Another connection completed the handshake with the same datapath id while this one failed its
   * echo (a reconnect).
   */
  REPLACED,
  /**
   * This connection claimed the datapath id of a connected switch that still answers its echo: an
   * impostor or a misconfigured switch; refused (docs/security.md).
   */
  DUPLICATE_DPID,
  /** OpenFlow over TLS: the switch's certificate does not name the datapath id it claimed. */
  CERTIFICATE_MISMATCH,
  /** OpenFlow over TLS: the TLS handshake failed (no certificate, another CA, bad protocol). */
  TLS_FAILED,
  /** A socket error. */
  IO_ERROR,
  /** A bug in the southbound itself (logged with its stack trace). */
  INTERNAL_ERROR
}
