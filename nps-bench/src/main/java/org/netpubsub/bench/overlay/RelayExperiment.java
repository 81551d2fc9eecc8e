package org.netpubsub.bench.overlay;

import java.lang.management.ManagementFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.overlay.AssignmentStrategy;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import org.netpubsub.edge.overlay.Endpoint;
import org.netpubsub.edge.overlay.RoutingBroker;
import org.netpubsub.edge.overlay.Zk;
import org.netpubsub.edge.overlay.ZkAuth;
import org.netpubsub.edge.overlay.ZnodeData;
import org.netpubsub.edge.overlay.ZnodePaths;

/**
 * What datagram authentication costs a routing broker (docs/security.md): one real routing broker
 * on a real ZooKeeper relays one topic to one subscriber socket while a sender blasts datagrams at
 * it for a fixed time; the relay rate (its {@code relayed} counter over the time) and the relay
 * thread's CPU per relayed datagram, with a key or without one; {@link #alternate} runs rounds of
 * both kinds in turn and gives their medians.
 */
public final class RelayExperiment {
  /** One round's outcome. */
  public record Round(
      boolean authenticated, long relayed, double perSecond, double cpuNsPerDatagram) {}

  /** The medians of the measured rounds of each kind. */
  public record Summary(
      double plainPerSecond,
      double authenticatedPerSecond,
      double plainCpuNs,
      double authenticatedCpuNs) {}

  private RelayExperiment() {}

  /**
   * On an embedded ZooKeeper: two unmeasured warm-up pairs of {@code measure} each (the JIT), then
   * {@code rounds} rounds of each kind, alternating which goes first; {@code each} sees every
   * measured round as it ends. {@code ownKey}: the edges hold their own keys only (else the
   * deployment's, the default).
   */
  public static Summary alternate(
      int payload, boolean ownKey, int rounds, Duration measure, Consumer<Round> each)
      throws Exception {
    List<Round> plain = new ArrayList<>();
    List<Round> auth = new ArrayList<>();
    ZkAuth zkAuth = ZkAuth.random("nps-bench"); // this run's ZooKeeper is no one else's
    try (EmbeddedZooKeeper zk =
        EmbeddedZooKeeper.start(
            new InetSocketAddress("127.0.0.1", 0),
            Files.createTempDirectory("nps-zk-relay"),
            100)) {
      // warm-up, not measured: the JIT. A second of each kind was too short: the first measured
      // rounds still ran partly compiled, at twice the later CPU per datagram (docs/results/
      // overlay-relay-auth.md, "Stop 42"), and weighed on the medians of 5 rounds
      for (boolean a : new boolean[] {false, true, false, true}) {
        run(zk.connectString(), zkAuth, a, ownKey, payload, measure);
      }
      for (int r = 0; r < rounds; r++) {
        for (boolean a : new boolean[] {r % 2 == 1, r % 2 == 0}) { // alternate which goes first
          Round x = run(zk.connectString(), zkAuth, a, ownKey, payload, measure);
          (a ? auth : plain).add(x);
          each.accept(x);
        }
      }
    }
    return new Summary(
        median(plain, true), median(auth, true), median(plain, false), median(auth, false));
  }

  private static double median(List<Round> rs, boolean rate) {
    double[] v =
        rs.stream()
            .mapToDouble(r -> rate ? r.perSecond() : r.cpuNsPerDatagram())
            .sorted()
            .toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  public static Round run(
      String connect,
      ZkAuth zkAuth,
      boolean authenticated,
      boolean ownKey,
      int payload,
      Duration measure)
      throws Exception {
    DatagramAuth auth = authenticated ? DatagramAuth.random() : DatagramAuth.insecure();
    String name = "rb-relay-" + System.nanoTime();
    String topic = "relay/" + name;
    InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
    AtomicBoolean stop = new AtomicBoolean();
    try (CuratorFramework zk = Zk.client(connect, Duration.ofSeconds(5), zkAuth);
        RoutingBroker rb =
            RoutingBroker.start(
                name,
                Zk.client(connect, Duration.ofSeconds(5), zkAuth),
                any,
                AssignmentStrategy.TOPIC_COUNT,
                auth);
        DatagramSocket sink = new DatagramSocket(any);
        DatagramSocket sender = new DatagramSocket(any)) {
      sink.setReceiveBufferSize(4 << 20);
      zk.create()
          .creatingParentContainersIfNeeded()
          .forPath(
              ZnodePaths.endpoint(topic, ZnodePaths.Role.SUBSCRIBER, "sub"),
              ZnodeData.endpoint(
                  new Endpoint(
                      "b",
                      (InetSocketAddress) sink.getLocalSocketAddress(),
                      java.util.Optional.empty(),
                      ownKey)));
      long until = System.nanoTime() + 30_000_000_000L;
      while (rb.view().topic(topic).map(t -> t.subscribers().isEmpty()).orElse(true)) {
        if (System.nanoTime() > until) {
          throw new IllegalStateException("the routing broker never took the topic");
        }
        Thread.sleep(20); // an experiment's set-up, not a test
      }
      byte[] d =
          DatagramCodec.encode(new EdgeMessage("pub", 1, topic, new byte[payload], 0, false));
      byte[] wire = java.util.Arrays.copyOf(d, d.length + auth.overhead());
      // ownKey: the publisher holds its own key only, the subscriber too (its entry says so), so
      // the broker checks the origin's derived key and re-seals for the subscriber; else both
      // hold the deployment keys and the broker relays the datagram with its tag as it came
      DatagramAuth edge =
          authenticated && ownKey ? DatagramAuth.of(EdgeKeys.derive(auth.keys(), "pub")) : auth;
      int len = edge.seal(wire, 0, d.length);
      Thread drain =
          Thread.ofPlatform()
              .daemon()
              .start(
                  () -> {
                    byte[] buf = new byte[65_535];
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    while (!stop.get()) {
                      try {
                        sink.receive(p);
                      } catch (java.io.IOException e) {
                        return;
                      }
                    }
                  });
      Thread blast =
          Thread.ofPlatform()
              .daemon()
              .start(
                  () -> {
                    DatagramPacket p = new DatagramPacket(wire, len, rb.address());
                    while (!stop.get()) {
                      try {
                        sender.send(p);
                      } catch (java.io.IOException e) {
                        return;
                      }
                    }
                  });
      Thread.sleep(500); // warm up the relay path
      long c0 = rb.counters().getOrDefault("relayed", 0L);
      long cpu0 = relayCpu(name);
      long t0 = System.nanoTime();
      Thread.sleep(measure.toMillis());
      long c1 = rb.counters().getOrDefault("relayed", 0L);
      long cpu1 = relayCpu(name);
      long t1 = System.nanoTime();
      stop.set(true);
      sender.close();
      sink.close();
      blast.join(2000);
      drain.join(2000);
      long n = c1 - c0;
      return new Round(
          authenticated, n, n / ((t1 - t0) / 1e9), n == 0 ? 0 : (double) (cpu1 - cpu0) / n);
    }
  }

  /** CPU time of the routing broker's relay thread so far, in ns. */
  private static long relayCpu(String name) {
    var mx = ManagementFactory.getThreadMXBean();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("nps-rb-relay-" + name)) {
        return mx.getThreadCpuTime(t.threadId());
      }
    }
    return 0;
  }
}
