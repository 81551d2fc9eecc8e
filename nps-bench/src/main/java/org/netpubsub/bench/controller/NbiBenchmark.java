package org.netpubsub.bench.controller;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.netpubsub.controller.nbi.BusMetrics;
import org.netpubsub.controller.nbi.ControllerApp;
import org.netpubsub.controller.nbi.DistributionMode;
import org.netpubsub.controller.nbi.NorthboundBus;
import org.netpubsub.controller.nbi.NorthboundBusBuilder;
import org.netpubsub.controller.nbi.apps.LearningSwitchApp;
import org.netpubsub.controller.nbi.apps.RedundantApp;
import org.netpubsub.controller.nbi.apps.ShortestPathApp;
import org.netpubsub.controller.southbound.OpenFlowServer;
import org.netpubsub.network.nbi.NbiTopic;

/**
 * {@code nps bench nbi}: the EMD measurements (paper §5.1 Figure 7, §5.4 Figure 11). A controller
 * with the northbound bus and an app combination listens on loopback; {@link Cbench}'s emulated
 * switches load it over real OpenFlow. The forwarding app sees every packet-in; redundant apps (ten
 * increments per event) see them too in broadcast mode, but in classified mode only those
 * subscribed to the traffic do.
 */
public final class NbiBenchmark {
  private NbiBenchmark() {}

  /**
   * How apps state their topics: OpenFlow match fields, or the same test as a window over the
   * packet's bytes (EMD §4.2's protocol-independent classification).
   */
  public enum TopicKind {
    FIELDS("eth_type=0x86dd", "eth_type=0x88cc"),
    BYTES("bytes@12/2=86dd", "bytes@12/2=88cc");

    /** What the cbench traffic (IPv6/UDP) matches, and what it never matches (LLDP). */
    final NbiTopic traffic;

    final NbiTopic other;

    TopicKind(String traffic, String other) {
      this.traffic = NbiTopic.parse(traffic);
      this.other = NbiTopic.parse(other);
    }
  }

  /**
   * One measurement. {@code apps} is "simple" plus optional "+red" or "+Nred"; {@code subscribed}
   * redundant apps (the first ones) subscribe to the traffic, the rest to other traffic; each
   * redundant app spends {@code redundantWork} of CPU per event besides its ten increments.
   */
  public record Run(
      String apps,
      int subscribed,
      Duration redundantWork,
      TopicKind topics,
      DistributionMode mode,
      Cbench.Mode load,
      int switches,
      int rounds,
      Duration roundLength) {}

  public record Result(Run run, int appCount, CbenchResult load, BusMetrics bus) {
    /** EMD §5.4's subscription rate: the share of apps that see the traffic. */
    public double subscriptionRate() {
      return (1.0 + run.subscribed()) / appCount;
    }
  }

  public static Result run(Run r, LongConsumer progress) throws IOException, InterruptedException {
    List<ControllerApp> apps = apps(r.apps(), r.subscribed(), r.redundantWork(), r.topics());
    NorthboundBusBuilder b = NorthboundBus.builder().mode(r.mode());
    apps.forEach(b::app);
    try (NorthboundBus bus = b.build();
        OpenFlowServer server =
            OpenFlowServer.builder().bindAddress("127.0.0.1").port(0).listener(bus).build()) {
      server.start();
      bus.attach(server::switchHandle);
      CbenchResult load =
          Cbench.builder()
              .switches(r.switches())
              .mode(r.load())
              .rounds(r.rounds())
              .roundLength(r.roundLength())
              .progress(progress)
              .answer(Cbench.Answer.PACKET_OUT) // every app answer carries one packet-out
              .awaitAnswer(true) // the forwarding app answers every packet-in
              .startAfterBarrier(true) // netpubsub's OpenFlowServer
              .build()
              .run(server.localAddress());
      return new Result(r, apps.size(), load, bus.metrics());
    }
  }

  /**
   * Loads a broadcast bus with three redundant apps for about {@code length} and forgets the
   * result, so the measured runs meet compiled code (the JIT is process-wide).
   */
  public static void warmUp(Duration length) throws IOException, InterruptedException {
    int rounds = (int) Math.max(1, length.toSeconds());
    for (Cbench.Mode load : Cbench.Mode.values()) {
      run(
          new Run(
              "simple+3red",
              1,
              Duration.ZERO,
              TopicKind.FIELDS,
              DistributionMode.BROADCAST,
              load,
              16,
              Math.max(1, rounds / 2),
              Duration.ofSeconds(1)),
          done -> {});
    }
  }

  /**
   * "simple", "simple+red", "simple+3red": the forwarding app and N redundant apps; "shortest"
   * instead of "simple" forwards on shortest paths instead of learning.
   */
  public static List<ControllerApp> apps(
      String spec, int subscribed, Duration redundantWork, TopicKind kind) {
    String[] parts = spec.split("\\+");
    if (!parts[0].equals("simple") && !parts[0].equals("shortest")) {
      throw new IllegalArgumentException(
          "apps start with simple or shortest (the forwarding app), as in simple+3red: " + spec);
    }
    int redundant = 0;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i];
      if (!p.endsWith("red")) {
        throw new IllegalArgumentException("unknown app '" + p + "' in " + spec);
      }
      String n = p.substring(0, p.length() - 3);
      try {
        redundant += n.isEmpty() ? 1 : Integer.parseInt(n);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + p + "' is not N red in " + spec);
      }
    }
    if (subscribed < 0 || subscribed > redundant) {
      throw new IllegalArgumentException(
          "subscribed redundant apps must be 0.." + redundant + ": " + subscribed);
    }
    List<ControllerApp> out = new ArrayList<>();
    out.add(
        parts[0].equals("simple")
            ? new LearningSwitchApp("simple", List.of(kind.traffic))
            : new ShortestPathApp("shortest", List.of(kind.traffic)));
    for (int i = 0; i < redundant; i++) {
      out.add(
          new RedundantApp(
              "red" + (i + 1),
              List.of(i < subscribed ? kind.traffic : kind.other),
              redundantWork.toNanos()));
    }
    return out;
  }
}
