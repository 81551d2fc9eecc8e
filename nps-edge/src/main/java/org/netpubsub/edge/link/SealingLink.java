package org.netpubsub.edge.link;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A {@link DatagramLink} that appends the {@link DatagramAuth} tag to every datagram before the
 * link under it sends it. The sealed copy is built in a per-thread buffer: the link under it is
 * done with the bytes when {@code send} returns (the socket sends them, the emulation copies them).
 */
final class SealingLink implements DatagramLink {
  private static final int MAX = 65_535;

  private final DatagramLink inner;
  private final DatagramAuth auth;
  private final ThreadLocal<byte[]> buffers = ThreadLocal.withInitial(() -> new byte[MAX]);

  SealingLink(DatagramLink inner, DatagramAuth auth) {
    this.inner = inner;
    this.auth = auth;
  }

  @Override
  public void send(byte[] data, int off, int len, InetSocketAddress to) throws IOException {
    if (len > MAX - auth.overhead()) {
      throw new IOException("datagram of " + len + " B leaves no room for its tag");
    }
    byte[] b = buffers.get();
    System.arraycopy(data, off, b, 0, len);
    inner.send(b, 0, auth.seal(b, 0, len), to);
  }

  @Override
  public void close() {
    inner.close();
  }
}
