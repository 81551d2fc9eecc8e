package org.netpubsub.cli;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Mosquitto 2.0's rule (docs/security.md, "Defaults"): a server that authenticates nobody listens
 * on loopback only, unless the operator opts out by name. An unauthenticated bind to any other
 * address (0.0.0.0 and :: included) is a one-line startup refusal naming the option and the
 * opt-out.
 */
final class LoopbackRule {
  private LoopbackRule() {}

  /**
   * @throws IllegalArgumentException if {@code at} is not loopback, nothing authenticates it and
   *     the opt-out was not given
   */
  static void check(
      InetSocketAddress at,
      boolean authenticated,
      boolean optedOut,
      String option,
      String howToAuthenticate,
      String optOut) {
    if (authenticated || optedOut || isLoopback(at)) {
      return;
    }
    throw new IllegalArgumentException(
        option
            + " "
            + at.getHostString()
            + " is not a loopback address and nothing authenticates it: give "
            + howToAuthenticate
            + ", bind 127.0.0.1 or ::1, or give "
            + optOut
            + " (isolated labs only)");
  }

  static boolean isLoopback(InetSocketAddress at) {
    if (at.isUnresolved()) {
      try {
        return InetAddress.getByName(at.getHostString()).isLoopbackAddress();
      } catch (UnknownHostException e) {
        return false; // the bind fails later with its own error
      }
    }
    return at.getAddress().isLoopbackAddress();
  }
}
