package org.netpubsub.client;

import java.net.URI;
import org.netpubsub.content.address.Ipv6Address;

/** Prints the host address {@link HostAddresses#detect} finds towards a controller URL. */
public final class HostAddressProbe {
  private HostAddressProbe() {}

  public static void main(String[] args) {
    try {
      System.out.println(Ipv6Address.format(HostAddresses.detect(URI.create(args[0]))));
    } catch (IllegalArgumentException e) {
      System.out.println("error: " + e.getMessage());
    }
  }
}
