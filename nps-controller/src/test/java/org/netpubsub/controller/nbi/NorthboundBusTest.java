package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.nbi.apps.LearningSwitchApp;
import org.netpubsub.controller.nbi.apps.RedundantApp;
import org.netpubsub.controller.southbound.SouthboundListener.PacketInReason;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.nbi.InvariantVerdict;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.nbi.PacketOutVerdict;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

class NorthboundBusTest {
  static final Ipv6Address H1 = Ipv6Address.parse("2001:db8::1");
  static final Ipv6Address H2 = Ipv6Address.parse("2001:db8::2");

  final RecordingSwitch s1 = new RecordingSwitch(1);
  final RecordingSwitch s2 = new RecordingSwitch(2);
  NorthboundBus bus;

  @AfterEach
  void close() {
    if (bus != null) {
      bus.close();
    }
  }

  NorthboundBus start(NorthboundBusBuilder b) {
    bus = b.build();
    bus.attach(d -> Optional.of(d == 1 ? s1 : s2));
    return bus;
  }

  void packetIn(long dpid, long inPort, byte[] frame) {
    bus.packetIn(dpid, inPort, PacketInReason.NO_MATCH, 0, 0, frame);
  }

  @Test
  void classifiedSendsEachPacketInOnlyToTheAppsThatAskedBroadcastToAll() throws Exception {
    for (DistributionMode mode : DistributionMode.values()) {
      start(
          NorthboundBus.builder()
              .mode(mode)
              .app(new LearningSwitchApp())
              .app(new RedundantApp("red1"))
              .app(new RedundantApp("red2")));
      packetIn(1, 1, Frames.udp6(H1, H2, 7073));
      packetIn(1, 1, Frames.lldp());
      poll(
          () ->
              bus.handled().values().stream().mapToLong(Long::longValue).sum()
                  == bus.metrics().deliveries(),
          mode + ": every delivery handled");
      Map<String, Long> handled = bus.handled();
      if (mode == DistributionMode.CLASSIFIED) {
        assertThat(handled).containsEntry("simple", 1L).containsEntry("red1", 1L);
        assertThat(bus.metrics().deliveries()).isEqualTo(3); // udp → simple, lldp → red1, red2
      } else {
        assertThat(handled).containsEntry("simple", 2L).containsEntry("red2", 2L);
        assertThat(bus.metrics().deliveries()).isEqualTo(6);
      }
      assertThat(bus.metrics().packetIns()).isEqualTo(2);
      bus.close();
    }
  }

  @Test
  void learningSwitchFloodsUnknownAndInstallsAFlowForAKnownDestination() throws Exception {
    start(NorthboundBus.builder().app(new LearningSwitchApp()));
    packetIn(1, 1, Frames.udp6(H1, H2, 7073)); // H2 unknown: flood, learn H1 at port 1
    packetIn(1, 2, Frames.udp6(H2, H1, 7073)); // H1 known at port 1: flow + packet-out
    poll(() -> s1.packetOuts.size() == 2, "two packet-outs");
    assertThat(s1.packetOuts.get(0).actions()).containsExactly(Action.output(OfPort.FLOOD));
    assertThat(s1.packetOuts.get(1).actions()).containsExactly(Action.output(1));
    assertThat(s1.packetOuts.get(1).inPort()).isEqualTo(2);
    assertThat(s1.mods).hasSize(1);
    FlowMod mod = ((SwitchMod.Flow) s1.mods.get(0)).mod();
    assertThat(mod.match().ipv6Dst()).isEqualTo(MaskedIpv6.exact(H1));
  }

  @Test
  void aSecondAppAnsweringTheSamePacketInOnTheSameSwitchIsDropped() throws Exception {
    List<PacketOutVerdict> verdicts = new CopyOnWriteArrayList<>();
    BiConsumer<PacketInView, AppContext> answer =
        (in, ctx) -> verdicts.add(ctx.packetOut(in, in.dpid(), 2, in.data()));
    start(NorthboundBus.builder().app(new Answering("a", answer)).app(new Answering("b", answer)));
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    poll(() -> verdicts.size() == 2, "both apps answered");
    assertThat(verdicts)
        .containsExactlyInAnyOrder(PacketOutVerdict.PASS, PacketOutVerdict.DROP_DUPLICATE);
    assertThat(s1.packetOuts).hasSize(1);
    assertThat(bus.metrics().duplicatePacketOuts()).isEqualTo(1);
  }

  @Test
  void aFlowModThatWouldLoopIsRefusedAndNeverReachesTheSwitch() throws Exception {
    // s1:2 — s2:1, H2 behind s2:3
    Topology t =
        Topology.EMPTY
            .addSwitch(1, 1, 2)
            .addSwitch(2, 1, 3)
            .addLink(Link.of(1, 2, 2, 1))
            .addHost(new Host(H2, new MacAddress(2), new SwitchPort(2, 3)));
    List<InvariantVerdict> verdicts = new CopyOnWriteArrayList<>();
    BiConsumer<PacketInView, AppContext> route =
        (in, ctx) -> {
          verdicts.add(ctx.flowMod(2, toH2(3))); // s2 delivers
          verdicts.add(ctx.flowMod(1, toH2(2))); // s1 → s2
          verdicts.add(ctx.flowMod(2, toH2(1))); // s2 → s1: a loop
        };
    start(NorthboundBus.builder().topology(t).app(new Answering("router", route)));
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    poll(() -> verdicts.size() == 3, "three flow-mods checked");
    assertThat(verdicts.get(0).accepted()).isTrue();
    assertThat(verdicts.get(1).accepted()).isTrue();
    assertThat(verdicts.get(2).outcome()).isEqualTo(InvariantVerdict.Outcome.LOOP);
    assertThat(s2.mods).hasSize(1); // the loop never went out
    assertThat(bus.metrics().refusedFlowMods()).isEqualTo(1);
  }

  @Test
  void theCoreAnswersTheReplySetAndNoAppSeesIt() throws Exception {
    start(
        NorthboundBus.builder()
            .app(new LearningSwitchApp())
            .reply(
                in -> in.headers().udpDst().orElse(-1) == 9,
                (in, core) -> core.packetOut(in, in.dpid(), in.inPort(), in.data())));
    packetIn(1, 4, Frames.udp6(H1, H2, 9));
    poll(() -> s1.packetOuts.size() == 1, "the core answered");
    assertThat(s1.packetOuts.get(0).actions()).containsExactly(Action.output(4));
    // back out of the ingress port: in_port must not be that port, or the switch drops it
    assertThat(s1.packetOuts.get(0).inPort()).isEqualTo(OfPort.CONTROLLER);
    assertThat(bus.metrics().replies()).isEqualTo(1);
    assertThat(bus.metrics().deliveries()).isZero();
  }

  @Test
  void anAppThatThrowsLosesThatEventOnlyAndKeepsRunning() throws Exception {
    start(
        NorthboundBus.builder()
            .app(
                new Answering(
                    "flaky",
                    (in, ctx) -> {
                      if (in.xid() == 1) {
                        throw new IllegalStateException("bug");
                      }
                      ctx.packetOut(in, in.dpid(), 2, in.data());
                    })));
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    packetIn(1, 1, Frames.udp6(H1, H2, 7073));
    poll(() -> s1.packetOuts.size() == 1, "the second event answered");
    assertThat(bus.metrics().appFailures()).isEqualTo(1);
  }

  @Test
  void duplicateAppNamesAreRefused() {
    var b = NorthboundBus.builder().app(new RedundantApp("x"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.app(new RedundantApp("x")))
        .hasMessageContaining("two apps are named x");
  }

  @Test
  void theLearningSwitchOnABroadcastBusLeavesLldpAlone() {
    start(NorthboundBus.builder().mode(DistributionMode.BROADCAST).app(new LearningSwitchApp()));
    packetIn(1, 1, Frames.lldp()); // flooding a probe would make links appear that are not there
    packetIn(1, 1, Frames.udp6(H1, H2, 7073)); // then an IPv6 packet, which it floods
    poll(() -> bus.handled().getOrDefault("simple", 0L) == 2, "both handled");
    assertThat(s1.packetOuts).hasSize(1);
    assertThat(s1.packetOuts.get(0).frame()).isEqualTo(Frames.udp6(H1, H2, 7073));
    assertThat(s1.packetOuts.get(0).actions()).containsExactly(Action.output(OfPort.FLOOD));
  }

  static FlowMod toH2(long port) {
    return FlowMod.add(
        FlowEntry.builder()
            .priority(10)
            .match(Match.builder().ipv6().ipv6Dst(MaskedIpv6.exact(H2)).build())
            .apply(Action.output(port))
            .build());
  }

  /** An app that sees every IPv6 packet-in and answers as told. */
  record Answering(String name, BiConsumer<PacketInView, AppContext> answer)
      implements ControllerApp {
    @Override
    public List<NbiTopic> topics() {
      return List.of(NbiTopic.parse("eth_type=0x86dd"));
    }

    @Override
    public void onPacketIn(PacketInView in, AppContext bus) {
      answer.accept(in, bus);
    }
  }

  static void poll(BooleanSupplier condition, String what) {
    Wait.until(what, Duration.ofSeconds(10), condition);
  }
}
