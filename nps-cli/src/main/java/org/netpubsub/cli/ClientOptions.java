package org.netpubsub.cli;

import java.io.PrintWriter;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.netpubsub.client.ControllerClient;
import org.netpubsub.client.ControllerException;
import org.netpubsub.client.Ipv6Text;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code nps pub} and {@code nps sub} share: the controller and this host's address.
 */
final class ClientOptions {
  /** Exit code when the controller refuses or cannot be reached. */
  static final int EXIT_CONTROLLER = 1;

  @Option(
      names = {"-c", "--controller"},
      defaultValue = "${env:NPS_CONTROLLER}",
      paramLabel = "URL",
      description =
          "The controller's REST API, e.g. http://[fd6e:7073:ffff::c0]:8080 or https://… (default: the"
              + " NPS_CONTROLLER environment variable).")
  String controller;

  @Option(
      names = "--host",
      paramLabel = "ADDRESS",
      description =
          "This host's data address (IPv6). Default: the unique global IPv6 address on an"
              + " interface other than the one that reaches the controller.")
  String host;

  @Mixin TokenOptions token;

  @Mixin CaOptions ca;

  ControllerClient connect() {
    if (controller == null || controller.isBlank()) {
      throw new IllegalArgumentException("--controller is required (or set NPS_CONTROLLER)");
    }
    return ControllerClient.builder(controller).token(token.token()).tls(ca.context()).build();
  }

  /** The address given with --host, or null to detect it. */
  Inet6Address hostAddress() {
    return host == null ? null : Ipv6Text.parse(host);
  }

  /** {@code ADDR:PORT} or {@code [ADDR]:PORT}, an IPv6 literal. */
  static InetSocketAddress parseSocketAddress(String text, String option) {
    int colon = text.lastIndexOf(':');
    if (colon < 1 || !text.startsWith("[") || text.charAt(colon - 1) != ']') {
      throw new IllegalArgumentException(option + " must be [IPV6]:PORT, not '" + text + "'");
    }
    Inet6Address a = Ipv6Text.parse(text.substring(0, colon));
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(option + ": bad port in '" + text + "'");
    }
    return new InetSocketAddress(a, port);
  }

  /**
   * The SIGTERM/Ctrl-C handling of a long-running client command: the hook calls {@code wake} (the
   * main thread then unsubscribes or unadvertises and prints its last lines), waits until {@code
   * finished} is counted down, and ends the JVM with {@code code} — 0 after a clean shutdown,
   * rather than the 143/130 of a signal, so that scripts can stop a subscriber and check its exit.
   */
  static Thread onSignal(Runnable wake, CountDownLatch finished, AtomicInteger code) {
    Thread hook =
        new Thread(
            () -> {
              wake.run();
              try {
                if (finished.await(10, TimeUnit.SECONDS)) {
                  Runtime.getRuntime().halt(code.get());
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "nps-client-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  /** Removes the hook of {@link #onSignal} after a normal end (a no-op while shutting down). */
  static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook is running and ends it
    }
  }

  /**
   * Reports a refusal: a filter or request the controller calls bad is bad input (exit 2), anything
   * else (unreachable, 409, 429, 5xx) exit 1.
   */
  static int fail(ControllerException e, PrintWriter err, boolean json) {
    boolean bad = e.isClientError();
    CommandFailure.print(err, json, bad ? "bad_input" : "controller_error", e.getMessage(), null);
    return bad ? Nps.EXIT_BAD_INPUT : EXIT_CONTROLLER;
  }
}
