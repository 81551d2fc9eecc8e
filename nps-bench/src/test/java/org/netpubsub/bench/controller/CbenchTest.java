package org.netpubsub.bench.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.netpubsub.bench.stats.Latencies;
import org.netpubsub.controller.southbound.OpenFlowServer;
import org.netpubsub.controller.southbound.SouthboundListener;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;

/** The cbench-like generator against a real controller-side server on loopback. */
class CbenchTest {
  private static final double SCALE =
      Double.parseDouble(System.getProperty("nps.test.timeoutScale", "1"));
  // a deadline, not a wait: the first run's connect and handshake took 5 s at load 34 (cold JVM)
  private static final Duration WAIT = Duration.ofMillis((long) (30_000 * SCALE));
  private static final Duration ROUND = Duration.ofMillis(150);

  /** A controller that counts packet-ins per switch and, if asked, answers each one. */
  static final class Controller implements SouthboundListener, AutoCloseable {
    final Map<Long, AtomicInteger> packetIns = new ConcurrentHashMap<>();
    final List<byte[]> firstFrames = new CopyOnWriteArrayList<>();
    final AtomicReference<OpenFlowServer> server = new AtomicReference<>();
    private final boolean answer;
    private final boolean withFlowModOnly;

    Controller(boolean answer) throws IOException {
      this(answer, false);
    }

    /** {@code withFlowModOnly}: answers with a flow-mod instead of a packet-out. */
    Controller(boolean answer, boolean withFlowModOnly) throws IOException {
      this.answer = answer;
      this.withFlowModOnly = withFlowModOnly;
      server.set(
          OpenFlowServer.builder().bindAddress("127.0.0.1").port(0).listener(this).build().start());
    }

    InetSocketAddress address() {
      return server.get().localAddress();
    }

    int packetIns(long dpid) {
      AtomicInteger n = packetIns.get(dpid);
      return n == null ? 0 : n.get();
    }

    @Override
    public void packetIn(
        long dpid, long inPort, PacketInReason reason, int tableId, long cookie, byte[] frame) {
      if (packetIns.computeIfAbsent(dpid, d -> new AtomicInteger()).incrementAndGet() <= 2) {
        firstFrames.add(frame);
      }
      if (answer && withFlowModOnly) {
        server
            .get()
            .switchHandle(dpid)
            .get()
            .applyFlows(
                List.of(
                    FlowMod.add(
                        FlowEntry.builder()
                            .priority(1)
                            .match(Match.builder().inPort(inPort).build())
                            .apply(Action.output(OfPort.FLOOD))
                            .build())));
      } else if (answer) {
        server
            .get()
            .switchHandle(dpid)
            .get()
            .packetOut(inPort, List.of(Action.output(OfPort.FLOOD)), frame);
      }
    }

    @Override
    public void close() {
      server.get().close();
    }
  }

  /**
   * Starts once the server's handshake is done: it holds earlier packet-ins until then, and drops
   * them if a run under load ends first.
   */
  private static Cbench.Builder quick(Cbench.Mode mode) {
    return Cbench.builder()
        .switches(2)
        .mode(mode)
        .roundLength(ROUND)
        .warmupRounds(1)
        .rounds(3)
        .connectTimeout(WAIT)
        .startAfterBarrier(true);
  }

  /** For the controllers that answer: a round under load may pass before an answer. */
  private static Cbench.Builder answered(Cbench.Mode mode) {
    return quick(mode).awaitAnswer(true);
  }

  @Test
  void latencyModeGetsResponsesAndRoundTripTimesFromBothSwitches() throws Exception {
    List<Long> progress = new CopyOnWriteArrayList<>();
    try (Controller c = new Controller(true)) {
      CbenchResult r =
          answered(Cbench.Mode.LATENCY).progress(progress::add).build().run(c.address());

      assertThat(r.mode()).isEqualTo(Cbench.Mode.LATENCY);
      assertThat(r.window()).isEqualTo(1);
      assertThat(r.responses()).isPositive();
      assertThat(r.responsesPerSecond()).isPositive();
      assertThat(r.roundRates()).hasSize(3).allMatch(rate -> rate > 0);
      assertThat(r.minRoundRate()).isLessThanOrEqualTo(r.meanRoundRate());
      assertThat(r.meanRoundRate()).isLessThanOrEqualTo(r.maxRoundRate());
      assertThat(r.measured()).isPositive();
      assertThat(r.packetIns()).isGreaterThan(r.responses());
      assertThat(r.disconnected()).isZero();
      assertThat(r.rtt()).isPresent();
      CbenchResult.Rtt rtt = r.rtt().get();
      assertThat(rtt.samples()).isPositive();
      assertThat(rtt.mean()).isPositive();
      assertThat(rtt.p50()).isPositive().isLessThanOrEqualTo(rtt.p99());
      // a switch's first packet-in may still be on its way to the listener when the run ends
      until("packet-ins from both switches", () -> c.packetIns(1) > 0 && c.packetIns(2) > 0);
      assertThat(progress).hasSize(4).isSorted();
      assertThat(progress.get(3)).isGreaterThanOrEqualTo(r.responses());
    }
  }

  @Test
  void awaitingAnAnswerMeasuresOneEvenWhenTheRoundIsShorterThanARoundTrip() throws Exception {
    // a 1 ms round usually ends before the first answer (always on a loaded machine); the run
    // then lasts until one arrives and divides by the time it really took
    try (Controller c = new Controller(true)) {
      CbenchResult r =
          quick(Cbench.Mode.LATENCY)
              .warmupRounds(0)
              .rounds(1)
              .roundLength(Duration.ofMillis(1))
              .awaitAnswer(true)
              .build()
              .run(c.address());
      assertThat(r.responses()).isPositive();
      assertThat(r.roundRates()).hasSize(1).allMatch(rate -> rate > 0);
      assertThat(r.rtt().get().samples()).isPositive();
    }
  }

  @Test
  void flowModsAnswerUnderAnyButNotUnderPacketOut() throws Exception {
    try (Controller c = new Controller(true, true)) {
      CbenchResult any = answered(Cbench.Mode.LATENCY).build().run(c.address());
      assertThat(any.responses()).isPositive();
    }
    try (Controller c = new Controller(true, true)) {
      CbenchResult packetOuts =
          quick(Cbench.Mode.LATENCY).answer(Cbench.Answer.PACKET_OUT).build().run(c.address());
      assertThat(packetOuts.responses()).isZero();
      assertThat(packetOuts.packetIns()).isEqualTo(2); // one per switch, never answered
    }
  }

  @Test
  void throughputModeGetsResponses() throws Exception {
    try (Controller c = new Controller(true)) {
      CbenchResult r = answered(Cbench.Mode.THROUGHPUT).window(16).build().run(c.address());

      assertThat(r.window()).isEqualTo(16);
      assertThat(r.responses()).isPositive();
      assertThat(r.roundRates()).hasSize(3).allMatch(rate -> rate > 0);
      assertThat(r.rtt()).isEmpty();
      until("packet-ins from both switches", () -> c.packetIns(1) > 0 && c.packetIns(2) > 0);
    }
  }

  @Test
  void unansweredLatencyModeGetsNoResponseAndSendsOnePacketInPerSwitch() throws Exception {
    try (Controller c = new Controller(false)) {
      CbenchResult r = quick(Cbench.Mode.LATENCY).build().run(c.address());

      until("both packet-ins arrived", () -> c.packetIns(1) + c.packetIns(2) == 2);
      assertThat(c.packetIns(1)).isEqualTo(1);
      assertThat(c.packetIns(2)).isEqualTo(1);
      assertThat(r.responses()).isZero();
      assertThat(r.roundRates()).containsOnly(0.0);
      assertThat(r.packetIns()).isEqualTo(2);
      assertThat(r.rtt().get().samples()).isZero();
    }
  }

  @Test
  void unansweredThroughputModeSendsExactlyTheWindowPerSwitch() throws Exception {
    int window = 8;
    try (Controller c = new Controller(false)) {
      CbenchResult r = quick(Cbench.Mode.THROUGHPUT).window(window).build().run(c.address());

      until("both windows arrived", () -> c.packetIns(1) + c.packetIns(2) == 2 * window);
      assertThat(c.packetIns(1)).isEqualTo(window);
      assertThat(c.packetIns(2)).isEqualTo(window);
      assertThat(r.responses()).isZero();
      assertThat(r.packetIns()).isEqualTo(2L * window);
    }
  }

  @Test
  void theControllerReceivesTheDefaultFrames() throws Exception {
    try (Controller c = new Controller(false)) {
      quick(Cbench.Mode.THROUGHPUT).window(2).hosts(10).build().run(c.address());

      until("four frames", () -> c.firstFrames.size() == 4);
      Set<Long> sources = new HashSet<>();
      for (byte[] f : c.firstFrames) {
        assertThat(f).hasSize(Ipv6UdpFrames.LENGTH);
        assertThat(u16(f, 12)).as("IPv6").isEqualTo(0x86dd);
        sources.add(mac(f, 6));
      }
      assertThat(sources).as("a different host per packet and per switch").hasSize(4);
    }
  }

  @Test
  void defaultFramesAreValidIpv6UdpBetweenRotatingHosts() {
    FrameSource frames = FrameSource.ipv6Udp(3);
    List<Long> sources = new ArrayList<>();
    for (long n = 0; n < 4; n++) {
      byte[] f = frames.frame(5, n);
      assertThat(u16(f, 12)).isEqualTo(0x86dd);
      assertThat(f[14] >> 4).as("IP version").isEqualTo(6);
      assertThat(u16(f, 18)).as("payload length").isEqualTo(16);
      assertThat(f[20]).as("next header UDP").isEqualTo((byte) 17);
      assertThat(u16(f, 56)).isEqualTo(Ipv6UdpFrames.DESTINATION_PORT);
      assertThat(onesComplementSum(f)).as("the UDP checksum verifies").isEqualTo(0xffff);
      assertThat(mac(f, 0))
          .as("to the next host")
          .isEqualTo(Ipv6UdpFrames.mac(5, (int) (n + 1) % 3));
      assertThat(f[14 + 8 + 7] & 0xff).as("2001:db8:0:S::").isEqualTo(5);
      assertThat(EmulatedSwitch.inPort(f)).isBetween(1L, (long) Cbench.PORTS);
      sources.add(mac(f, 6));
    }
    assertThat(sources)
        .containsExactly(
            Ipv6UdpFrames.mac(5, 0),
            Ipv6UdpFrames.mac(5, 1),
            Ipv6UdpFrames.mac(5, 2),
            Ipv6UdpFrames.mac(5, 0));
    assertThat(mac(frames.frame(6, 0), 6)).isNotEqualTo(sources.get(0));
    assertThat(EmulatedSwitch.inPort(frames.frame(5, 3)))
        .as("one host, one port")
        .isEqualTo(EmulatedSwitch.inPort(frames.frame(5, 0)));
  }

  @Test
  void aControllerThatIsNotThereFailsTheRunQuickly() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Cbench cbench = quick(Cbench.Mode.LATENCY).connectTimeout(Duration.ofSeconds(2)).build();
    assertThatThrownBy(() -> cbench.run(new InetSocketAddress("127.0.0.1", port)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("could not be connected");
  }

  @Test
  void settingsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> Cbench.builder().window(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("window");
    assertThatThrownBy(() -> Cbench.builder().switches(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Cbench.builder().rounds(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Cbench.builder().hosts(0).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void histogramPercentilesAreWithinOnePercent() {
    Latencies h = new Latencies();
    for (long v = 1; v <= 10_000; v++) {
      h.record(v * 1000);
    }
    assertThat(h.count()).isEqualTo(10_000);
    assertThat(h.mean()).isEqualTo(5_000_500);
    assertThat((double) h.percentile(0.5)).isCloseTo(5_000_000, Percentage.withPercentage(1));
    assertThat((double) h.percentile(0.99)).isCloseTo(9_900_000, Percentage.withPercentage(1));
    assertThat(h.percentile(1.0)).isGreaterThanOrEqualTo(h.percentile(0.99));
    // each value against the sorted array: LatenciesProperties (HdrHistogram's own buckets)
    assertThat(new Latencies().percentile(0.99)).isZero();
  }

  /** The ones' complement sum over the IPv6 pseudo-header and the UDP datagram. */
  private static int onesComplementSum(byte[] f) {
    long sum = 0;
    for (int i = 22; i < 54; i += 2) {
      sum += u16(f, i);
    }
    sum += u16(f, 18) + 17;
    for (int i = 54; i < f.length; i += 2) {
      sum += u16(f, i);
    }
    while (sum >> 16 != 0) {
      sum = (sum & 0xffff) + (sum >> 16);
    }
    return (int) sum;
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
  }

  private static long mac(byte[] b, int at) {
    long m = 0;
    for (int i = at; i < at + 6; i++) {
      m = m << 8 | b[i] & 0xff;
    }
    return m;
  }

  private static void until(String what, BooleanSupplier condition) {
    Wait.until(what, WAIT, condition);
  }
}
