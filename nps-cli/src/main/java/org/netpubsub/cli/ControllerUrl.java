package org.netpubsub.cli;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import org.netpubsub.content.address.Ipv6Address;

/** Parsing and printing of the {@code scheme://HOST:PORT} options of the edge commands. */
final class ControllerUrl {
  private ControllerUrl() {}

  /** {@code http://HOST:PORT} or a clear error naming {@code option}. */
  static URI parse(String s, String option) {
    return parse(s, option, "http");
  }

  /**
   * {@code http://HOST:PORT} or {@code https://HOST:PORT}, or a clear error naming {@code option}.
   */
  static URI parseHttp(String s, String option) {
    return s != null && s.startsWith("https:") ? parse(s, option, "https") : parse(s, option);
  }

  static URI parse(String s, String option, String scheme) {
    URI u;
    try {
      u = URI.create(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          option + " must be " + scheme + "://HOST:PORT, not '" + s + "'");
    }
    if (!scheme.equals(u.getScheme())
        || u.getHost() == null
        || u.getPort() < 1
        || (u.getPath() != null && !u.getPath().isEmpty() && !u.getPath().equals("/"))) {
      throw new IllegalArgumentException(
          option + " must be " + scheme + "://HOST:PORT, not '" + s + "'");
    }
    return u;
  }

  /**
   * The host of {@code a} as a URL writes it: IPv6 in RFC 5952 form (the project's one formatter,
   * {@link Ipv6Address}) without its scope, in brackets.
   */
  static String host(InetSocketAddress a) {
    return a.getAddress() instanceof Inet6Address v6
        ? "[" + Ipv6Address.format(v6) + "]"
        : a.getAddress().getHostAddress();
  }

  /**
   * The host of a listening address as a URL or an Open vSwitch target ({@code tcp:[::1]:6653})
   * writes it: IPv6 as {@link #host}, anything else as it was given (a name stays a name).
   */
  static String listenHost(InetSocketAddress a) {
    return a.getAddress() instanceof Inet6Address ? host(a) : a.getHostString();
  }
}
