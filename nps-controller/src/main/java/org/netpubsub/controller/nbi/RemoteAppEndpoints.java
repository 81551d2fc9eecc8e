package org.netpubsub.controller.nbi;

/**
 * The three ZeroMQ endpoints of the northbound bus for remote apps: {@code control} (requests such
 * as {@code SUBSCRIBE app topic}, REQ/REP), {@code data} (packet-ins, ROUTER/DEALER) and {@code
 * answers} (packet-outs and flow-mods, PUSH/PULL). The bus binds them, apps connect to them. When
 * binding, a port {@code *} ({@code tcp://127.0.0.1:*}) picks a free port; {@link
 * NorthboundBus#remoteEndpoints} tells which.
 */
public record RemoteAppEndpoints(String control, String data, String answers) {
  public RemoteAppEndpoints {
    for (String e : new String[] {control, data, answers}) {
      if (e == null || e.isBlank() || !e.contains("://")) {
        throw new IllegalArgumentException("a ZeroMQ endpoint is transport://address: " + e);
      }
    }
  }

  /** Three free ports on the loopback interface: what tests and single-machine setups bind. */
  public static RemoteAppEndpoints loopback() {
    return onHost("127.0.0.1");
  }

  /** Three free TCP ports on one interface ({@code *} for all of them). */
  public static RemoteAppEndpoints onHost(String host) {
    String base = "tcp://" + host + ":*";
    return new RemoteAppEndpoints(base, base, base);
  }

  /** Fixed TCP ports on one host: what an operator writes into an app's configuration. */
  public static RemoteAppEndpoints tcp(String host, int control, int data, int answers) {
    return new RemoteAppEndpoints(
        "tcp://" + host + ":" + control,
        "tcp://" + host + ":" + data,
        "tcp://" + host + ":" + answers);
  }
}
