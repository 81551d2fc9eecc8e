package org.netpubsub.controller.southbound;

import java.time.Duration;

/**
 * The settings of an {@link OpenFlowServer}; the defaults live here, in one place. Timeouts: {@code
 * echoInterval} of read silence before an echo request, {@code deadPeerTimeout} of read silence
 * before the connection is dropped, {@code barrierTimeout} for a batch's barrier reply and for
 * multipart replies, {@code handshakeTimeout} from accept to the end of the handshake. {@code tls}
 * is null for plain TCP. {@code reconcileOnConnect}: whether the server itself reconciles a switch
 * that connects with a desired state (off when a user, such as the controller, reconciles it in
 * turn with its other reconciles: two at once plan from one read of the switch).
 */
record ServerConfig(
    String bindAddress,
    int port,
    Duration echoInterval,
    Duration deadPeerTimeout,
    Duration barrierTimeout,
    Duration handshakeTimeout,
    int maxMessageSize,
    int eventLoopThreads,
    SouthboundListener listener,
    OpenFlowTls tls,
    boolean reconcileOnConnect) {

  static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";

  /** The IANA port of OpenFlow. */
  static final int DEFAULT_PORT = 6653;

  static final Duration DEFAULT_ECHO_INTERVAL = Duration.ofSeconds(5);
  static final Duration DEFAULT_DEAD_PEER_TIMEOUT = Duration.ofSeconds(15);
  static final Duration DEFAULT_BARRIER_TIMEOUT = Duration.ofSeconds(10);
  static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
  static final int DEFAULT_MAX_MESSAGE_SIZE = OpenFlowFrameDecoder.MAX_FRAME;

  /** Two event loops serve hundreds of switches: they only frame, decode and dispatch. */
  static final int DEFAULT_EVENT_LOOP_THREADS = 2;

  ServerConfig {
    if (port < 0 || port > 0xffff) {
      throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
    }
    positive(echoInterval, "echo interval");
    positive(deadPeerTimeout, "dead-peer timeout");
    positive(barrierTimeout, "barrier timeout");
    positive(handshakeTimeout, "handshake timeout");
    if (deadPeerTimeout.compareTo(echoInterval) <= 0) {
      throw new IllegalArgumentException(
          "the dead-peer timeout must exceed the echo interval, or echoes could never answer it");
    }
    if (maxMessageSize < 64 || maxMessageSize > OpenFlowFrameDecoder.MAX_FRAME) {
      throw new IllegalArgumentException("max message size must be in [64, 65535]");
    }
    if (eventLoopThreads < 1) {
      throw new IllegalArgumentException("at least one event loop thread");
    }
    if (listener == null) {
      throw new IllegalArgumentException("listener is required");
    }
  }

  private static void positive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive: " + d);
    }
  }
}
