package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H1;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.southbound.SouthboundListener.PacketInReason;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.nbi.PacketOutVerdict;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** Remote apps over real ZeroMQ on TCP loopback, next to in-process apps on the same bus. */
class RemoteAppTest {
  static final double SCALE = Double.parseDouble(System.getProperty("nps.test.timeoutScale", "1"));
  static final Duration TIMEOUT = Duration.ofMillis((long) (5000 * SCALE));

  final RecordingSwitch s1 = new RecordingSwitch(1);
  final RecordingSwitch s2 = new RecordingSwitch(2);
  final List<RemoteAppClient> clients = new ArrayList<>();
  NorthboundBus bus;

  @AfterEach
  void close() {
    clients.forEach(RemoteAppClient::close);
    clients.clear();
    if (bus != null) {
      bus.close();
    }
  }

  NorthboundBus start(NorthboundBusBuilder b) {
    bus = b.remoteApps(RemoteAppEndpoints.loopback()).build();
    bus.attach(d -> Optional.of(d == 1 ? s1 : s2));
    return bus;
  }

  /** Connected means a probe crossed the data socket: no packet-in sent later is lost to it. */
  RemoteAppClient connect(String name, RemoteAppClient.Handler handler) {
    RemoteAppClient c =
        RemoteAppClient.connect(name, bus.remoteEndpoints().orElseThrow(), TIMEOUT, handler);
    clients.add(c);
    return c;
  }

  void packetIn(long dpid, long inPort, byte[] frame) {
    bus.packetIn(dpid, inPort, PacketInReason.NO_MATCH, 0, 0, frame);
  }

  @Test
  void aRemoteAppSeesExactlyThePacketInsAnInProcessAppWithTheSameTopicSees() throws Exception {
    for (DistributionMode mode : DistributionMode.values()) {
      List<PacketInView> local = new CopyOnWriteArrayList<>();
      List<PacketInView> remote = new CopyOnWriteArrayList<>();
      NbiTopic topic = NbiTopic.parse("udp_dst=7073");
      start(NorthboundBus.builder().mode(mode).app(new Recorder("local", topic, local)));
      connect("remote", (in, me) -> remote.add(in)).subscribe("udp_dst=7073");
      assertThat(bus.subscriptions()).containsEntry("remote", List.of(topic));

      packetIn(1, 1, Frames.udp6(H1, H2, 7073)); // id 1: the topic
      packetIn(1, 2, Frames.udp6(H1, H2, 9999)); // id 2: another port
      packetIn(2, 3, Frames.lldp()); // id 3: not even IPv6
      packetIn(2, 4, Frames.udp6(H2, H1, 7073)); // id 4: the topic
      packetIn(9, 1, Frames.udp6(H2, H1, 7073)); // id 5: a marker both get, last
      // each path is FIFO: once the marker is in, everything before it is
      poll(() -> seen(local, 9) && seen(remote, 9), mode + ": both got the marker");

      List<Long> ids = mode == DistributionMode.CLASSIFIED ? List.of(1L, 4L, 5L) : ids(1, 5);
      assertThat(local).extracting(PacketInView::xid).as(mode.name()).isEqualTo(ids);
      assertThat(remote).as(mode + ": dpid, in_port, id and bytes alike").isEqualTo(local);
      assertThat(remote.get(0).data()).isEqualTo(Frames.udp6(H1, H2, 7073));
      close();
    }
  }

  @Test
  void aRemoteAppsPacketOutAndFlowModReachTheSwitch() throws Exception {
    start(NorthboundBus.builder());
    FlowMod mod = NorthboundBusTest.toH2(3);
    connect(
            "answerer",
            (in, me) -> {
              me.flowMod(in.dpid(), mod);
              me.packetOut(in, in.dpid(), 2, in.data());
            })
        .subscribe("eth_type=0x86dd");
    byte[] frame = Frames.udp6(H1, H2, 7073);
    packetIn(1, 5, frame);
    poll(() -> s1.packetOuts.size() == 1 && s1.mods.size() == 1, "a packet-out and a flow-mod");
    assertThat(s1.packetOuts.get(0).actions()).containsExactly(Action.output(2));
    assertThat(s1.packetOuts.get(0).inPort()).isEqualTo(5); // the cause's in_port, echoed
    assertThat(s1.packetOuts.get(0).frame()).isEqualTo(frame);
    assertThat(((SwitchMod.Flow) s1.mods.get(0)).mod()).isEqualTo(mod); // FLOW_MOD bytes and back
    assertThat(bus.metrics().remoteAnswers()).isEqualTo(2);
    assertThat(bus.metrics().malformedAnswers()).isZero();
  }

  @Test
  void aRemoteFlowModThatWouldLoopIsRefusedByTheSameChecker() throws Exception {
    Topology t =
        Topology.EMPTY
            .addSwitch(1, 1, 2)
            .addSwitch(2, 1, 3)
            .addLink(Link.of(1, 2, 2, 1))
            .addHost(new Host(H2, new MacAddress(2), new SwitchPort(2, 3)));
    start(NorthboundBus.builder().topology(t));
    Notices notices =
        new Notices(
            (in, me) -> {
              me.flowMod(2, NorthboundBusTest.toH2(3)); // s2 delivers
              me.flowMod(1, NorthboundBusTest.toH2(2)); // s1 → s2
              me.flowMod(2, NorthboundBusTest.toH2(1)); // s2 → s1: a loop
            });
    connect("router", notices).subscribe("ipv6_dst=2001:db8::2");
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    poll(
        () -> bus.metrics().flowMods() + bus.metrics().refusedFlowMods() == 3,
        "three flow-mods checked");
    assertThat(bus.metrics().refusedFlowMods()).isEqualTo(1);
    assertThat(s2.mods).hasSize(1); // the loop never went out
    assertThat(s1.mods).hasSize(1);
    // ... and the app hears which one and why
    poll(() -> notices.refusals.size() == 1, "the refusal at the app");
    RemoteAppClient.Refusal r = notices.refusals.get(0);
    assertThat(r.dpid()).isEqualTo(2);
    assertThat(r.flowMod()).contains(NorthboundBusTest.toH2(1));
    assertThat(r.reason()).startsWith("loop: ").contains("comes back");
  }

  @Test
  void aRemotePacketOutToADeadPortIsRefusedAndTheTopologyReannounced() throws Exception {
    Topology t =
        Topology.EMPTY
            .addSwitch(1, 1, 2, 3)
            .addSwitch(2, 1, 3)
            .addLink(Link.of(1, 2, 2, 1))
            .addHost(new Host(H2, new MacAddress(2), new SwitchPort(2, 3)));
    // dead ports are checked for packet-ins several apps see (Algorithm 2)
    start(
        NorthboundBus.builder()
            .topology(t)
            .app(new Recorder("other", NbiTopic.parse("eth_type=0x86dd"), new ArrayList<>())));
    Notices notices = new Notices((in, me) -> me.packetOut(in, in.dpid(), 7, in.data()));
    connect("stale", notices).subscribe("eth_type=0x86dd");
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    poll(() -> notices.refusals.size() == 1, "the refusal at the app");
    assertThat(notices.refusals.get(0).flowMod()).isEmpty();
    assertThat(notices.refusals.get(0).outPort()).isEqualTo(7);
    assertThat(notices.refusals.get(0).packetInId()).isEqualTo(1);
    poll(() -> !notices.topologies.isEmpty(), "the topology re-announced");
    assertThat(notices.topologies.get(0)).isEqualTo(t);
    assertThat(s1.packetOuts).isEmpty();

    Topology next = t.removeLink(Link.of(1, 2, 2, 1));
    bus.routesChanged(next, List.of());
    poll(() -> notices.topologies.contains(next), "a changed topology announced");
  }

  /** A remote app's handler that records the bus's refusals and topology announcements. */
  record Notices(
      RemoteAppClient.Handler answers,
      List<RemoteAppClient.Refusal> refusals,
      List<Topology> topologies)
      implements RemoteAppClient.Handler {
    Notices(RemoteAppClient.Handler answers) {
      this(answers, new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
    }

    @Override
    public void onPacketIn(PacketInView in, RemoteAppClient me) {
      answers.onPacketIn(in, me);
    }

    @Override
    public void onRefused(RemoteAppClient.Refusal r, RemoteAppClient me) {
      refusals.add(r);
    }

    @Override
    public void onTopology(Topology topology, RemoteAppClient me) {
      topologies.add(topology);
    }
  }

  @Test
  void anInProcessAndARemoteAppAnsweringTheSamePacketInOneIsADuplicate() throws Exception {
    List<PacketOutVerdict> localVerdicts = new CopyOnWriteArrayList<>();
    start(
        NorthboundBus.builder()
            .app(
                new NorthboundBusTest.Answering(
                    "local",
                    (in, ctx) -> localVerdicts.add(ctx.packetOut(in, in.dpid(), 2, in.data())))));
    connect("remote", (in, me) -> me.packetOut(in, in.dpid(), 2, in.data()))
        .subscribe("eth_type=0x86dd");
    for (int i = 0; i < 3; i++) {
      packetIn(1, 1, Frames.udp6(H1, H2, 7073 + i));
    }
    poll(
        () -> bus.metrics().packetOuts() + bus.metrics().duplicatePacketOuts() == 6,
        "six packet-outs decided");
    // the remote app's answer names the bus's packet-in id, so it meets the same record entry
    assertThat(bus.metrics().packetOuts()).isEqualTo(3);
    assertThat(bus.metrics().duplicatePacketOuts()).isEqualTo(3);
    assertThat(s1.packetOuts).hasSize(3);
    assertThat(localVerdicts).hasSize(3);
    assertThat(bus.metrics().remoteAnswers()).isEqualTo(3);
  }

  @Test
  void badRequestsAreRefusedWithAReasonAndTheBusKeepsServing() {
    start(NorthboundBus.builder().app(new Recorder("local", NbiTopic.ANY, new ArrayList<>())));
    RemoteAppClient c = connect("remote", (in, me) -> {});

    String topic = "udp_dst=7073,ipv6_dst=2001:db8::zz";
    assertThat(c.call("SUBSCRIBE remote " + topic))
        .startsWith("ERR topic '" + topic + "', column 23: "); // the value of ipv6_dst
    assertThatThrownBy(() -> c.subscribe("udp_dst="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("topic 'udp_dst=', column 9: missing value");
    assertThat(c.call("FROB remote")).startsWith("ERR unknown request 'FROB'");
    assertThat(c.call("SUBSCRIBE local *")).isEqualTo("ERR local is an in-process app");
    assertThat(c.call("SUBSCRIBE bad/name *")).startsWith("ERR an app name is 1 to 64");
    assertThat(c.call("UNSUBSCRIBE remote udp_dst=1"))
        .isEqualTo("ERR remote is not subscribed to udp_dst=1");
    assertThat(c.call("BYE")).isEqualTo("ERR usage: BYE APP");
    assertThat(c.call("PROBE remote xyz")).startsWith("ERR a probe token is");
    assertThat(c.call("S".repeat(5000))).isEqualTo("ERR request of 5000 bytes, at most 4096");
    try (ZContext ctx = new ZContext(1);
        ZMQ.Socket req = ctx.createSocket(SocketType.REQ)) {
      req.setReceiveTimeOut((int) TIMEOUT.toMillis());
      req.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS); // as the client does: jeromq#1022
      req.connect(bus.remoteEndpoints().orElseThrow().control());
      req.sendMore("SUBSCRIBE remote");
      req.send("*");
      assertThat(req.recvStr()).isEqualTo("ERR a request is one frame of text");
    }
    assertThat(bus.metrics().refusedRequests()).isEqualTo(10);
    assertThatThrownBy(() -> connect("local", (in, me) -> {}))
        .hasMessage("local is an in-process app");

    assertThat(c.call("SUBSCRIBE remote udp_dst=7073")).isEqualTo("OK");
    assertThat(bus.subscriptions())
        .containsEntry("remote", List.of(NbiTopic.parse("udp_dst=7073")));
  }

  @Test
  void malformedAnswersAreCountedAndDropped() throws Exception {
    start(NorthboundBus.builder());
    connect("remote", (in, me) -> {});
    PacketInView cause = new PacketInView(1, 4, 77, new byte[0]);
    byte[] valid = RemoteWire.packetOut(cause, 1, 2, Frames.lldp());
    byte[] flowMod = RemoteWire.flowMod(1, NorthboundBusTest.toH2(3));
    byte[] flowModNotOpenFlow13 = flowMod.clone();
    flowModNotOpenFlow13[RemoteWire.FLOW_MOD_HEADER] = 1; // version 1.0
    byte[] flowModBadMatch = flowMod.clone();
    ByteBuffer.wrap(flowModBadMatch).putShort(RemoteWire.FLOW_MOD_HEADER + 48 + 2, (short) 999);
    try (ZContext ctx = new ZContext(1);
        ZMQ.Socket push = ctx.createSocket(SocketType.PUSH)) {
      push.setLinger(1000);
      push.setHandshakeIvl(RemoteAppClient.HANDSHAKE_MS);
      push.connect(bus.remoteEndpoints().orElseThrow().answers());
      send(push, "remote"); // one frame
      send(push, "remote", new byte[] {9, 0, 0}); // unknown kind
      send(push, "remote", new byte[0]); // empty body
      send(push, "remote", Arrays.copyOf(valid, 20)); // a truncated packet-out
      send(push, "remote", Arrays.copyOf(flowMod, flowMod.length - 4)); // a truncated FLOW_MOD
      send(push, "remote", flowModNotOpenFlow13);
      send(push, "remote", flowModBadMatch);
      send(push, "stranger", valid); // not a registered app
      send(push, "remote", valid, valid); // three frames
      send(push, "remote", valid); // and one that is fine
      poll(() -> s1.packetOuts.size() == 1, "the valid packet-out");
    }
    // one PUSH socket keeps its order: the nine came first
    assertThat(bus.metrics().malformedAnswers()).isEqualTo(9);
    assertThat(bus.metrics().remoteAnswers()).isEqualTo(1);
    assertThat(s1.packetOuts.get(0).inPort()).isEqualTo(4);
    assertThat(s1.mods).isEmpty();
  }

  @Test
  void unsubscribeAndByeTakeEffectAndCloseStopsEveryThread() throws Exception {
    start(NorthboundBus.builder());
    RemoteAppClient c = connect("remote", (in, me) -> {});
    c.subscribe("udp_dst=7073");
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    poll(() -> c.received() == 1, "the packet-in");
    c.unsubscribe("udp_dst=7073");
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    assertThat(bus.metrics().unclaimed()).isEqualTo(1); // still registered, no topic matches
    assertThat(bus.subscriptions()).containsEntry("remote", List.of());

    c.close(); // says BYE
    assertThat(bus.subscriptions()).doesNotContainKey("remote");
    long start = System.nanoTime();
    bus.close();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);
    poll(
        () ->
            Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().startsWith("nbi-remote-")),
        "every socket thread of the bus and the client ended");
    assertThatThrownBy(() -> c.packetOut(new PacketInView(1, 1, 1, null), 1, 2, new byte[0]))
        .isInstanceOf(IllegalStateException.class);
  }

  static void send(ZMQ.Socket push, String app, byte[]... body) {
    byte[] name = app.getBytes(StandardCharsets.UTF_8);
    if (body.length == 0) {
      push.send(name);
      return;
    }
    push.sendMore(name);
    for (int i = 0; i < body.length; i++) {
      if (i < body.length - 1) {
        push.sendMore(body[i]);
      } else {
        push.send(body[i]);
      }
    }
  }

  static boolean seen(List<PacketInView> seen, long dpid) {
    return seen.stream().anyMatch(p -> p.dpid() == dpid);
  }

  static List<Long> ids(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i <= to; i++) {
      out.add(i);
    }
    return out;
  }

  static void poll(BooleanSupplier condition, String what) {
    Wait.until(what, TIMEOUT, condition);
  }

  /** An in-process app that records what it sees. */
  record Recorder(String name, NbiTopic topic, List<PacketInView> seen) implements ControllerApp {
    @Override
    public List<NbiTopic> topics() {
      return List.of(topic);
    }

    @Override
    public void onPacketIn(PacketInView in, AppContext bus) {
      seen.add(in);
    }
  }
}
