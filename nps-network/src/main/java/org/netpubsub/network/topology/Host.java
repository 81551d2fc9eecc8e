package org.netpubsub.network.topology;

import org.netpubsub.content.address.Ipv6Address;

/** A host as the controller knows it: one IPv6 address, its MAC, and the edge port it is at. */
public record Host(Ipv6Address address, MacAddress mac, SwitchPort attachment) {
  public Host {
    if (address == null || mac == null || attachment == null) {
      throw new IllegalArgumentException("a host has an address, a MAC and an attachment");
    }
  }

  /** The same host at another port. */
  public Host at(SwitchPort port) {
    return new Host(address, mac, port);
  }

  @Override
  public String toString() {
    return address + "@" + attachment + "(" + mac + ")";
  }
}
