package org.netpubsub.edge.dds;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where a DDS site lives: a domain id, optionally the one network interface its participant uses,
 * and optionally the USER_DATA its participant announces ({@code
 * dds:DOMAIN[?interface=IF][&user_data=TEXT]}; some applications answer only participants whose
 * user data they know, e.g. {@code ddsperf}'s {@code DDSPerf:0:PID:HOST}, docs/overlay-dds.md).
 * Whether the domain can really be joined (the id in Cyclone's range, the interface present) is
 * found out by joining it ({@link DdsBridge#start}).
 */
public record DdsDomain(int domain, String networkInterface, String userData) {
  public DdsDomain {
    if (networkInterface != null && !networkInterface.matches("[A-Za-z0-9._:@-]{1,64}")) {
      throw new IllegalArgumentException(
          "--local dds: bad interface name '" + networkInterface + "'");
    }
    if (userData != null && !userData.matches("[\\x20-\\x7e]{1,256}")) {
      throw new IllegalArgumentException(
          "--local dds: user_data must be 1 to 256 printable ASCII characters");
    }
  }

  public DdsDomain(int domain, String networkInterface) {
    this(domain, networkInterface, null);
  }

  /** Parses {@code dds:DOMAIN[?interface=IF][&user_data=TEXT]}; refuses anything else naming it. */
  public static DdsDomain parse(URI local) {
    if (!"dds".equals(local.getScheme()) || local.getRawSchemeSpecificPart() == null) {
      throw new IllegalArgumentException(
          "--local must be dds:DOMAIN[?interface=IF][&user_data=TEXT], not " + local);
    }
    String ssp = local.getRawSchemeSpecificPart();
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
    String userData = null;
    if (q >= 0) {
      for (String option : ssp.substring(q + 1).split("&", -1)) {
        int eq = option.indexOf('=');
        String name = eq < 0 ? option : option.substring(0, eq);
        String value = eq < 0 ? "" : decode(option.substring(eq + 1));
        switch (name) {
          case "interface" -> iface = value;
          case "user_data" -> userData = value;
          default ->
              throw new IllegalArgumentException(
                  "--local dds: the options are ?interface=IF and &user_data=TEXT, not '"
                      + option
                      + "'");
        }
      }
    }
    return new DdsDomain(domain, iface, userData);
  }

  private static String decode(String v) {
    try {
      return URLDecoder.decode(v.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--local dds: bad %-escape in '" + v + "'");
    }
  }
}
