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

  /**
   * TLS handshakes of one source address running at once while the controller is slow ({@link
   * HandshakeTurns}): two, so one can wait for its switch's answer while the other computes. While
   * the controller keeps up there is no limit.
   */
  static final int TLS_HANDSHAKES_AT_ONCE = 2;

  /**
   * The controller is slow at TLS handshakes when its last server flight took this long on the
   * event loop ({@link HandshakeLag}): a few milliseconds of CPU each, so 50 ms means the loop got
   * a small share of a core (60-125 ms at 8-4 %; docs/results/ovs-reconnect.md, stop 42).
   */
  static final Duration TLS_SLOW_FLIGHT = Duration.ofMillis(50);

  /**
   * TLS handshakes that may wait per source address; beyond, one begins at once (counted), as
   * without turns. 256: more than the bridges one host runs (the test bed's all share 127.0.0.1).
   */
  static final int TLS_WAITING_PER_SOURCE = 256;

  /**
   * TLS handshakes that may wait in all (held ClientHellos, 64 KiB each at most); beyond, begin.
   */
  static final int TLS_WAITING = 4096;

  /**
   * The longest a TLS handshake keeps its turn: a peer that stalls mid-handshake while the
   * controller is slow delays its own address's others by at most this. 1 s: Open vSwitch's own
   * deadline.
   */
  static final Duration TLS_TURN = Duration.ofSeconds(1);

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
