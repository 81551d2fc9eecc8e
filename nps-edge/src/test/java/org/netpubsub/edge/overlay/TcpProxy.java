package org.netpubsub.edge.overlay;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP forwarder in front of a ZooKeeper server: {@link #cut} drops every connection and refuses
 * new ones, as a crashed host would, so the server expires the client's session after its timeout
 * (closing a Curator client would end the session at once, which no crash does). {@link #pause} and
 * {@link #resume} make a short outage the session survives. {@link #requests} counts what the
 * clients behind it ask the server, pings apart (the server's own read count includes every
 * client's pings, sent whenever a session has been idle for a third of its timeout).
 */
final class TcpProxy implements Closeable {
  private final ServerSocket server;
  private final InetSocketAddress target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicLong requests = new AtomicLong();
  private volatile boolean cut;
  private volatile boolean paused;
  private static final int PING = 11; // ZooDefs.OpCode.ping

  TcpProxy(InetSocketAddress target) throws IOException {
    this.target = target;
    this.server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(this::accept);
  }

  String connectString() {
    return "127.0.0.1:" + server.getLocalPort();
  }

  private void accept() {
    while (!cut) {
      try {
        Socket in = server.accept();
        if (paused) {
          in.close(); // refused: the client retries
          continue;
        }
        Socket out = new Socket(target.getAddress(), target.getPort());
        sockets.add(in);
        sockets.add(out);
        Thread.ofVirtual().start(() -> pumpRequests(in, out));
        Thread.ofVirtual().start(() -> pump(out, in));
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    byte[] buf = new byte[8192];
    try (InputStream i = from.getInputStream();
        OutputStream o = to.getOutputStream()) {
      int n;
      while ((n = i.read(buf)) >= 0) {
        o.write(buf, 0, n);
      }
    } catch (IOException e) {
      // the other side closed, or cut()
    } finally {
      closeBoth(from, to);
    }
  }

  /** ZooKeeper requests forwarded to the server (counted before they are), pings not counted. */
  long requests() {
    return requests.get();
  }

  /**
   * Client to server, frame by frame (a 4-byte length, then the body): after a connection's
   * ConnectRequest every body starts with its xid and operation code.
   */
  private void pumpRequests(Socket from, Socket to) {
    try (DataInputStream i = new DataInputStream(new BufferedInputStream(from.getInputStream()));
        OutputStream o = to.getOutputStream()) {
      boolean connectRequest = true;
      while (true) {
        int length = i.readInt();
        ByteBuffer frame = ByteBuffer.allocate(4 + length).putInt(length);
        i.readFully(frame.array(), 4, length);
        if (!connectRequest && length >= 8 && frame.getInt(8) != PING) {
          requests.incrementAndGet();
        }
        connectRequest = false;
        o.write(frame.array());
      }
    } catch (IOException e) {
      // the other side closed, or cut() (EOFException at a frame boundary included)
    } finally {
      closeBoth(from, to);
    }
  }

  private static void closeBoth(Socket from, Socket to) {
    try {
      from.close();
      to.close();
    } catch (IOException e) {
      // closing
    }
  }

  /** Drops every connection and refuses new ones until {@link #resume}. */
  void pause() {
    paused = true;
    closeAll();
  }

  void resume() {
    paused = false;
  }

  void cut() {
    cut = true;
    try {
      server.close();
    } catch (IOException e) {
      // closing
    }
    closeAll();
  }

  private void closeAll() {
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException e) {
        // closing
      }
    }
    sockets.clear();
  }

  @Override
  public void close() {
    cut();
  }
}
