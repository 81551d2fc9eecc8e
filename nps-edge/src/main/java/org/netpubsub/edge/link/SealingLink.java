package org.netpubsub.edge.link;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A {@link DatagramLink} that appends a {@link DatagramAuth} tag to every datagram before the link
 * under it sends it (its {@link DatagramLink.Sealer} picks the key by destination). The sealed copy
 * is built in a per-thread buffer: the link under it is done with the bytes when {@code send}
 * returns (the socket sends them, the emulation copies them).
 */
final class SealingLink implements DatagramLink {
  private static final int MAX = 65_535;

  private final DatagramLink inner;
  private final DatagramLink.Sealer sealer;
  private final ThreadLocal<byte[]> buffers = ThreadLocal.withInitial(() -> new byte[MAX]);

  SealingLink(DatagramLink inner, DatagramLink.Sealer sealer) {
    this.inner = inner;
    this.sealer = sealer;
  }

  @Override
  public void send(byte[] data, int off, int len, InetSocketAddress to) throws IOException {
    if (len > MAX - DatagramAuth.TAG) {
      throw new IOException("datagram of " + len + " B leaves no room for its tag");
    }
    byte[] b = buffers.get();
    System.arraycopy(data, off, b, 0, len);
    inner.send(b, 0, sealer.seal(b, 0, len, to), to);
  }

  @Override
  public void close() {
    inner.close();
  }
}
