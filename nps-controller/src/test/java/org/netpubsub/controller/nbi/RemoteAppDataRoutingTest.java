package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H1;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H2;
import static org.netpubsub.controller.nbi.RemoteAppTest.TIMEOUT;
import static org.netpubsub.controller.nbi.RemoteAppTest.poll;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.southbound.SouthboundListener.PacketInReason;
import org.netpubsub.network.nbi.PacketInView;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Issue 27: an admitted remote-northbound client receives the packet-ins of the apps its CURVE
 * identity may act as, and no other app's, however it asks for them. Before the data socket
 * addressed connections it was a PUB, and a subscriber with an admitted key and the empty topic
 * filter read every app's packet-ins. Real ZeroMQ on TCP loopback.
 */
class RemoteAppDataRoutingTest {
  static final int PORT_A = 7073;
  static final int PORT_B = 7074;

  /** How long alpha's subscriber is watched for packet-ins it must not read. */
  static final Duration WINDOW = Duration.ofMillis(1500);

  final RemoteAppKeys.KeyPair server = RemoteAppKeys.KeyPair.generate();
  final RemoteAppKeys.KeyPair alpha = RemoteAppKeys.KeyPair.generate();
  final RemoteAppKeys.KeyPair beta = RemoteAppKeys.KeyPair.generate();
  final Map<String, RemoteAppKeys.Client> both =
      Map.of(
          alpha.publicZ85(), new RemoteAppKeys.Client("alpha", Set.of("a")),
          beta.publicZ85(), new RemoteAppKeys.Client("beta", Set.of("b")));
  final RecordingSwitch s1 = new RecordingSwitch(1);
  final List<RemoteAppClient> clients = new ArrayList<>();
  NorthboundBus bus;

  @AfterEach
  void close() {
    clients.forEach(RemoteAppClient::close);
    if (bus != null) {
      bus.close();
    }
  }

  RemoteAppClient connect(String app, RemoteAppKeys.KeyPair as, List<PacketInView> seen) {
    RemoteAppClient c =
        RemoteAppClient.connect(
            app,
            bus.remoteEndpoints().orElseThrow(),
            new RemoteAppCredentials(server.publicKey(), as),
            TIMEOUT,
            (in, me) -> seen.add(in));
    clients.add(c);
    return c;
  }

  void packetIns(int port, int n) {
    for (int i = 0; i < n; i++) {
      bus.packetIn(1, 1, PacketInReason.NO_MATCH, 0, 0, Frames.udp6(H1, H2, port));
    }
  }

  /** The UDP destination port of a packet-in's frame (IPv6: 14 + 40 bytes, then UDP). */
  static int udpDst(byte[] frame) {
    return ((frame[56] & 0xff) << 8) | (frame[57] & 0xff);
  }

  @Test
  void anAdmittedClientReceivesItsOwnAppsPacketInsAndNoOtherApps() throws Exception {
    bus =
        NorthboundBus.builder()
            .remoteApps(RemoteAppEndpoints.loopback(), new RemoteAppKeys(server, both))
            .build();
    bus.attach(d -> Optional.of(s1));
    RemoteAppEndpoints at = bus.remoteEndpoints().orElseThrow();
    try (ZContext ctx = new ZContext(1);
        ZMQ.Socket sub = ctx.createSocket(SocketType.SUB);
        ZMQ.Socket subEvents = ctx.createSocket(SocketType.PAIR);
        ZMQ.Socket dealer = ctx.createSocket(SocketType.DEALER)) {
      // alpha, admitted for app a, tries to read app b's packet-ins: a subscriber with its key and
      // no topic filter (what read everything when the data socket was PUB) ...
      new RemoteAppCredentials(server.publicKey(), alpha).apply(sub);
      sub.monitor("inproc://sub-events", ZMQ.EVENT_DISCONNECTED);
      subEvents.connect("inproc://sub-events");
      sub.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS);
      sub.connect(at.data());
      sub.subscribe(new byte[0]);
      // ... and a data connection that says hello for b, then for its own a
      new RemoteAppCredentials(server.publicKey(), alpha).apply(dealer);
      dealer.setLinger(0);
      dealer.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS);
      dealer.setReceiveTimeOut((int) TIMEOUT.toMillis());
      dealer.connect(at.data());
      dealer.send("HELLO b");
      assertThat(welcome(dealer)).isEqualTo("ERR client 'alpha' may not act as app 'b'");
      dealer.send("HELLO a");
      assertThat(welcome(dealer)).isEqualTo("OK");

      List<PacketInView> a = new CopyOnWriteArrayList<>();
      List<PacketInView> b = new CopyOnWriteArrayList<>();
      connect("a", alpha, a).subscribe("udp_dst=" + PORT_A);
      connect("b", beta, b).subscribe("udp_dst=" + PORT_B);
      packetIns(PORT_B, 3);
      packetIns(PORT_A, 3); // after b's: one connection's messages keep their order
      poll(() -> a.size() == 3 && b.size() == 3, "each app's own packet-ins");
      assertThat(a).allMatch(in -> udpDst(in.data()) == PORT_A);
      assertThat(b).allMatch(in -> udpDst(in.data()) == PORT_B);

      // for a while, more of b's packet-ins: a subscriber connected at any moment would read them
      // (a SUB's subscription takes effect some time after connecting; with PUB it read them all)
      sub.setReceiveTimeOut(50);
      subEvents.setReceiveTimeOut(0);
      List<byte[]> read = new ArrayList<>();
      boolean dropped = false;
      long window = System.nanoTime() + WINDOW.toNanos();
      while (read.isEmpty() && System.nanoTime() - window < 0) {
        packetIns(PORT_B, 1);
        for (byte[] m = sub.recv(0); m != null; m = sub.recv(0)) {
          read.add(m);
        }
        dropped |= ZMQ.Event.recv(subEvents) != null;
      }
      assertThat(read).as("alpha's subscriber read messages of the bus").isEmpty();
      subEvents.setReceiveTimeOut((int) TIMEOUT.toMillis());
      dropped |= ZMQ.Event.recv(subEvents) != null;
      assertThat(dropped).as("alpha's subscriber dropped (a ROUTER takes no SUB)").isTrue();

      // alpha's own data connection got a's three packet-ins, and b's never came before them
      List<Integer> ports = new ArrayList<>();
      while (ports.size() < 3) {
        byte[] topic = dealer.recv(0);
        assertThat(topic).as("a message within " + TIMEOUT).isNotNull();
        assertThat(new String(topic, StandardCharsets.UTF_8)).isEqualTo("a\0");
        RemoteWire.Data d = RemoteWire.decodeData(dealer.recv(0));
        if (d instanceof RemoteWire.PacketIn p) {
          ports.add(udpDst(p.view().data()));
        }
      }
      assertThat(ports).containsOnly(PORT_A);
    }
    assertThat(bus.metrics().remoteForbidden()).isEqualTo(1);
  }

  @Test
  void aReloadStopsAConnectionMadeBeforeFromReceivingAnAppItMayNoLongerActAs() throws Exception {
    Map<String, RemoteAppKeys.Client> shared =
        Map.of(
            alpha.publicZ85(), new RemoteAppKeys.Client("alpha", Set.of("a", "shared")),
            beta.publicZ85(), new RemoteAppKeys.Client("beta", Set.of("shared")));
    bus =
        NorthboundBus.builder()
            .remoteApps(RemoteAppEndpoints.loopback(), new RemoteAppKeys(server, shared))
            .build();
    bus.attach(d -> Optional.of(s1));
    try (ZContext ctx = new ZContext(1);
        ZMQ.Socket dealer = ctx.createSocket(SocketType.DEALER)) {
      new RemoteAppCredentials(server.publicKey(), alpha).apply(dealer);
      dealer.setLinger(0);
      dealer.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS);
      dealer.setReceiveTimeOut((int) TIMEOUT.toMillis());
      dealer.connect(bus.remoteEndpoints().orElseThrow().data());
      dealer.send("HELLO shared");
      assertThat(welcome(dealer)).isEqualTo("OK");
      dealer.send("HELLO a");
      assertThat(welcome(dealer)).isEqualTo("OK");
      List<PacketInView> seen = new CopyOnWriteArrayList<>();
      connect("shared", beta, seen).subscribe("udp_dst=" + PORT_B); // beta registers it
      connect("a", alpha, new CopyOnWriteArrayList<>()).subscribe("udp_dst=" + PORT_A);
      packetIns(PORT_B, 1);
      assertThat(new String(dealer.recv(0), StandardCharsets.UTF_8)).isEqualTo("shared\0");
      dealer.recv(0);

      // alpha loses "shared"; beta's registration stays, so its packet-ins are still sent
      bus.reloadRemoteClients(
          Map.of(
              alpha.publicZ85(),
              new RemoteAppKeys.Client("alpha", Set.of("a")),
              beta.publicZ85(),
              shared.get(beta.publicZ85())));
      packetIns(PORT_B, 2);
      packetIns(PORT_A, 1); // after them, on the same connection
      poll(() -> seen.size() == 3, "beta's packet-ins");
      byte[] topic = dealer.recv(0);
      assertThat(topic).as("a's packet-in within " + TIMEOUT).isNotNull();
      assertThat(new String(topic, StandardCharsets.UTF_8))
          .as("the first message after the reload")
          .isEqualTo("a\0");
    }
  }

  /** The bus's answer to a hello: the text after the kind byte. */
  static String welcome(ZMQ.Socket dealer) {
    byte[] topic = dealer.recv(0);
    assertThat(topic).as("an answer to the hello within " + TIMEOUT).isNotNull();
    RemoteWire.Data d = RemoteWire.decodeData(dealer.recv(0));
    assertThat(d).isInstanceOf(RemoteWire.Welcome.class);
    return ((RemoteWire.Welcome) d).reply();
  }
}
