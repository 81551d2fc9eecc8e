package org.netpubsub.controller.nbi;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * The ZeroMQ authentication handler (ZAP, RFC 27) of the remote northbound: every CURVE handshake
 * on the bus's three sockets asks it, and it admits only the public keys of the clients file. An
 * admitted connection carries the client's name as its user id, which the gateway reads off each
 * message to check the app names it acts as. A refused handshake never reaches a socket: the peer
 * can send nothing and receive nothing.
 *
 * <p>A peer that offers no CURVE at all (the NULL mechanism, or garbage) fails the handshake before
 * ZAP is asked: ZeroMQ disconnects it, and it is not counted here (JeroMQ 0.6.0 reports no
 * handshake failure for a mechanism mismatch, only a disconnect, as for any peer leaving).
 *
 * <p>It keeps no state per peer: one counter and the rate-limited log's last line time. Its reply
 * is a map lookup, so a handshake waits on it for microseconds; ZeroMQ's handshake interval on the
 * bound sockets bounds how long a peer that never finishes holds a connection.
 */
final class ZapHandler {
  private static final System.Logger LOG = System.getLogger(ZapHandler.class.getName());

  /** Where libzmq and JeroMQ send ZAP requests, in the context of the authenticating socket. */
  static final String ENDPOINT = "inproc://zeromq.zap.01";

  /** The ZAP domain the bus's sockets set: the handler answers requests for it alone. */
  static final String DOMAIN = "nps-nbi";

  private volatile RemoteAppKeys keys; // replaced whole by a clients file reload
  private final ZMQ.Socket socket;
  private final AtomicLong refused = new AtomicLong();
  private final RateLimitedLog refusals = new RateLimitedLog(LOG, 10_000);

  /** Binds the handler's socket; call before any CURVE socket of {@code context} binds. */
  ZapHandler(ZContext context, RemoteAppKeys keys) {
    this.keys = keys;
    this.socket = context.createSocket(SocketType.REP);
    socket.setLinger(0);
    socket.setReceiveTimeOut(RemoteAppGateway.POLL_MS);
    socket.bind(ENDPOINT);
  }

  /** Admits these keys' clients from now on (a reload); connections made before stay. */
  void keys(RemoteAppKeys k) {
    this.keys = k;
  }

  long refused() {
    return refused.get();
  }

  /** Answers requests until {@code running} turns false; then closes the socket. */
  void serve(java.util.function.BooleanSupplier running) {
    try {
      while (running.getAsBoolean()) {
        try {
          byte[] first = socket.recv(0);
          if (first == null) {
            continue;
          }
          List<byte[]> frames = new ArrayList<>(7);
          frames.add(first);
          while (socket.hasReceiveMore()) {
            byte[] f = socket.recv(0);
            if (frames.size() < 8) {
              frames.add(f);
            }
          }
          reply(frames);
        } catch (ZMQException e) {
          if (!running.getAsBoolean()) {
            return;
          }
          LOG.log(System.Logger.Level.WARNING, "the ZAP handler's socket failed", e);
        }
      }
    } finally {
      socket.close();
    }
  }

  /** Frames: version, request id, domain, address, identity, mechanism, credentials... */
  private void reply(List<byte[]> f) {
    String version = f.size() > 0 ? text(f.get(0)) : "";
    byte[] requestId = f.size() > 1 ? f.get(1) : new byte[0];
    if (f.size() < 6 || !"1.0".equals(version)) {
      send(requestId, "500", "malformed ZAP request", "");
      return;
    }
    String address = text(f.get(3));
    String mechanism = text(f.get(5));
    Optional<RemoteAppKeys.Client> client =
        "CURVE".equals(mechanism) && f.size() >= 7 ? keys.client(f.get(6)) : Optional.empty();
    if (client.isEmpty() || !DOMAIN.equals(text(f.get(2)))) {
      refused.incrementAndGet();
      refusals.warn(
          "refused remote-app connections without an admitted CURVE key (last from {0}, {1})",
          address, mechanism);
      send(requestId, "400", "no admitted CURVE key", "");
      return;
    }
    send(requestId, "200", "OK", client.get().name());
  }

  private void send(byte[] requestId, String status, String text, String userId) {
    socket.sendMore("1.0");
    socket.sendMore(requestId);
    socket.sendMore(status);
    socket.sendMore(text);
    socket.sendMore(userId);
    socket.send(new byte[0]); // no metadata
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.US_ASCII);
  }
}
