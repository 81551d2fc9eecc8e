package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H1;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H2;
import static org.netpubsub.controller.nbi.RemoteAppTest.TIMEOUT;
import static org.netpubsub.controller.nbi.RemoteAppTest.poll;
import static org.netpubsub.controller.nbi.RemoteAppTest.send;

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
import org.netpubsub.network.openflow.FlowMod;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The remote northbound with CURVE (issue 27): a peer without an admitted key neither sends
 * flow-mods nor receives packet-ins, and an admitted client acts as its own apps only. Real ZeroMQ
 * on TCP loopback.
 */
class RemoteAppAuthTest {
  final RemoteAppKeys.KeyPair server = RemoteAppKeys.KeyPair.generate();
  final RemoteAppKeys.KeyPair alpha = RemoteAppKeys.KeyPair.generate();
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

  void start() {
    RemoteAppKeys keys =
        new RemoteAppKeys(
            server, Map.of(alpha.publicZ85(), new RemoteAppKeys.Client("alpha", Set.of("remote"))));
    bus = NorthboundBus.builder().remoteApps(RemoteAppEndpoints.loopback(), keys).build();
    bus.attach(d -> Optional.of(s1));
  }

  RemoteAppClient connect(String app, RemoteAppCredentials creds, RemoteAppClient.Handler h) {
    RemoteAppClient c =
        RemoteAppClient.connect(app, bus.remoteEndpoints().orElseThrow(), creds, TIMEOUT, h);
    clients.add(c);
    return c;
  }

  @Test
  void aPeerWithoutAnAdmittedKeyNeitherSendsFlowModsNorReceivesPacketIns() throws Exception {
    start();
    List<PacketInView> admitted = new CopyOnWriteArrayList<>();
    connect(
            "remote",
            new RemoteAppCredentials(server.publicKey(), alpha),
            (in, me) -> admitted.add(in))
        .subscribe("eth_type=0x86dd");
    FlowMod mod = NorthboundBusTest.toH2(3);
    RemoteAppEndpoints at = bus.remoteEndpoints().orElseThrow();
    RemoteAppKeys.KeyPair stranger = RemoteAppKeys.KeyPair.generate();
    try (ZContext ctx = new ZContext(1);
        ZMQ.Socket push = ctx.createSocket(SocketType.PUSH);
        ZMQ.Socket sub = ctx.createSocket(SocketType.SUB);
        ZMQ.Socket strangerPush = ctx.createSocket(SocketType.PUSH);
        ZMQ.Socket pushEvents = ctx.createSocket(SocketType.PAIR);
        ZMQ.Socket subEvents = ctx.createSocket(SocketType.PAIR)) {
      // a plain peer, as every peer was before: the app's name is registered, the answer valid
      push.monitor("inproc://push-events", ZMQ.EVENT_DISCONNECTED);
      pushEvents.connect("inproc://push-events");
      push.setLinger(0);
      push.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS);
      // ZeroMQ ends a connection that fails its handshake with its pipe, and a PUSH without one
      // waits for ever: if the test thread runs after the bus refused it (load), the send gives up
      push.setSendTimeOut((int) TIMEOUT.toMillis());
      push.connect(at.answers());
      send(push, "remote", RemoteWire.flowMod(1, mod));
      sub.monitor("inproc://sub-events", ZMQ.EVENT_DISCONNECTED);
      subEvents.connect("inproc://sub-events");
      sub.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS);
      sub.connect(at.data());
      sub.subscribe(RemoteWire.topic("remote"));
      // and a CURVE peer that knows the bus's key but holds no admitted key of its own
      new RemoteAppCredentials(server.publicKey(), stranger).apply(strangerPush);
      strangerPush.setLinger(0);
      strangerPush.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS); // jeromq#1022
      strangerPush.setSendTimeOut((int) TIMEOUT.toMillis());
      strangerPush.connect(at.answers());
      send(strangerPush, "remote", RemoteWire.flowMod(1, mod));
      // the bus drops a plain peer in the handshake (its mechanism is not CURVE): each socket sees
      // the disconnect; the stranger's handshake reaches the ZAP handler and is refused there
      int wait = (int) TIMEOUT.toMillis();
      assertThat(ZMQ.Event.recv(pushEvents, wait)).as("the plain pusher dropped").isNotNull();
      assertThat(ZMQ.Event.recv(subEvents, wait)).as("the plain subscriber dropped").isNotNull();
      poll(() -> bus.metrics().remoteUnauthenticated() >= 1, "the stranger refused");
      bus.packetIn(1, 1, PacketInReason.NO_MATCH, 0, 0, Frames.udp6(H1, H2, 7073));
      poll(() -> admitted.size() == 1, "the admitted app's packet-in");
      sub.setReceiveTimeOut(0);
      assertThat(sub.recv(0)).as("a packet-in reached the plain subscriber").isNull();
    }
    assertThat(s1.mods).as("the plain peer's flow-mod reached a switch").isEmpty();
    assertThat(bus.metrics().remoteAnswers()).isZero();
    assertThat(bus.metrics().flowMods()).isZero();
  }

  @Test
  void aClientWithAnUnknownKeyOrTheWrongServerKeyCannotConnect() {
    start();
    Duration shortWait = Duration.ofMillis(500);
    RemoteAppKeys.KeyPair stranger = RemoteAppKeys.KeyPair.generate();
    assertThatThrownBy(
            () ->
                RemoteAppClient.connect(
                    "remote",
                    bus.remoteEndpoints().orElseThrow(),
                    new RemoteAppCredentials(server.publicKey(), stranger),
                    shortWait,
                    (in, me) -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no reply from the bus");
    assertThatThrownBy(
            () ->
                RemoteAppClient.connect(
                    "remote",
                    bus.remoteEndpoints().orElseThrow(),
                    new RemoteAppCredentials(stranger.publicKey(), alpha), // not the bus's key
                    shortWait,
                    (in, me) -> {}))
        .isInstanceOf(IllegalStateException.class);
    // ZAP counts the refusal on its own thread, which under load may run after the client gave up
    poll(() -> bus.metrics().remoteUnauthenticated() > 0, "the refused handshakes counted");
    assertThat(bus.subscriptions()).doesNotContainKey("remote");
  }

  @Test
  void anAdmittedClientsFlowModReachesTheSwitchAndItActsAsItsOwnAppsOnly() throws Exception {
    start();
    RemoteAppCredentials creds = new RemoteAppCredentials(server.publicKey(), alpha);
    FlowMod mod = NorthboundBusTest.toH2(3);
    connect("remote", creds, (in, me) -> me.flowMod(in.dpid(), mod)).subscribe("eth_type=0x86dd");
    bus.packetIn(1, 1, PacketInReason.NO_MATCH, 0, 0, Frames.udp6(H1, H2, 7073));
    poll(() -> s1.mods.size() == 1, "the admitted client's flow-mod");
    assertThatThrownBy(() -> connect("beta", creds, (in, me) -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client 'alpha' may not act as app 'beta'");
    assertThat(bus.metrics().remoteForbidden()).isEqualTo(1);
    assertThat(bus.metrics().remoteUnauthenticated()).isZero();
  }
}
