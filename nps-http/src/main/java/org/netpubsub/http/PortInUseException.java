package org.netpubsub.http;

import java.io.IOException;
import java.net.InetSocketAddress;

/** A server could not bind its address: another process holds it. The message is one line. */
public final class PortInUseException extends IOException {
  public PortInUseException(String server, InetSocketAddress address, Throwable cause) {
    super(
        server
            + ": cannot listen on "
            + address.getHostString()
            + ":"
            + address.getPort()
            + ": the address is already in use",
        cause);
  }
}
