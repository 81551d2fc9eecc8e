package org.netpubsub.edge.dds;

import java.net.URI;

/**
 * Where a DDS site lives: a domain id and, optionally, the one network interface its participant
 * uses ({@code dds:DOMAIN[?interface=IF]}). Whether the domain can really be joined (the id in
 * Cyclone's range, the interface present) is found out by joining it ({@link DdsBridge#start}).
 */
public record DdsDomain(int domain, String networkInterface) {
  public DdsDomain {
    if (networkInterface != null && !networkInterface.matches("[A-Za-z0-9._:@-]{1,64}")) {
      throw new IllegalArgumentException(
          "--local dds: bad interface name '" + networkInterface + "'");
    }
  }

  /** Parses {@code dds:DOMAIN[?interface=IF]}; refuses anything else naming the part. */
  public static DdsDomain parse(URI local) {
    if (!"dds".equals(local.getScheme()) || local.getSchemeSpecificPart() == null) {
      throw new IllegalArgumentException("--local must be dds:DOMAIN[?interface=IF], not " + local);
    }
    String ssp = local.getSchemeSpecificPart();
    int q = ssp.indexOf('?');
    String id = q < 0 ? ssp : ssp.substring(0, q);
    int domain;
    try {
      domain = Integer.parseInt(id);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--local dds: the domain id must be a number, not '" + id + "'");
    }
    String iface = null;
    if (q >= 0) {
      String query = ssp.substring(q + 1);
      if (!query.startsWith("interface=") || query.contains("&")) {
        throw new IllegalArgumentException(
            "--local dds: the only option is ?interface=IF, not '" + query + "'");
      }
      iface = query.substring("interface=".length());
    }
    return new DdsDomain(domain, iface);
  }
}
