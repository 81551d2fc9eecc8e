package org.netpubsub.bench.overlay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import org.netpubsub.bench.stats.Latencies;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.LinkProfile;
import org.netpubsub.edge.link.WanEmulation;
import org.netpubsub.edge.overlay.AssignmentStrategy;
import org.netpubsub.edge.overlay.EdgeBroker;
import org.netpubsub.edge.overlay.EdgeBrokerConfig;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
import org.netpubsub.edge.overlay.RoutingBroker;

/**
 * The paper's data-locality experiment (§3.2, Figure 5) on one machine: {@code sites} sites (a
 * Mosquitto and an edge broker each), {@code brokers} routing brokers, every overlay datagram over
 * an emulated WAN link; each site publishes {@code topics} topics, a fraction {@code locality} of
 * them subscribed in the same site, the rest in the next site. Latency is MQTT publish to delivery,
 * averaged over every delivery.
 */
public final class LocalityExperiment {
  public record Outcome(
      double locality,
      int delivered,
      int expected,
      double avgMs,
      double p99Ms,
      double relayCpuMsPerBroker,
      double edgeCpuMsPerEdge) {}

  private LocalityExperiment() {}

  /**
   * The paper's Figure 5 on an embedded ZooKeeper and {@code sites} Mosquittos: {@link #run} once
   * per number of routing brokers; {@code each} sees every outcome with its number of brokers.
   */
  public static void figure5(
      int sites,
      List<Integer> brokerCounts,
      int topics,
      LinkProfile wan,
      List<Double> localities,
      int rounds,
      long intervalMs,
      BiConsumer<Integer, Outcome> each)
      throws Exception {
    Path dir = Files.createTempDirectory("nps-fig5");
    try (EmbeddedZooKeeper zk =
            EmbeddedZooKeeper.start(new InetSocketAddress("127.0.0.1", 0), dir.resolve("zk"), 100);
        MultipathExperiment mosquittos = new MultipathExperiment(zk.connectString(), dir, sites)) {
      for (int brokers : brokerCounts) {
        for (Outcome o :
            run(mosquittos, sites, brokers, topics, wan, localities, rounds, intervalMs)) {
          each.accept(brokers, o);
        }
      }
    }
  }

  public static List<Outcome> run(
      MultipathExperiment sitesX,
      int sites,
      int brokers,
      int topics,
      LinkProfile wan,
      List<Double> localities,
      int rounds,
      long intervalMs)
      throws Exception {
    InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
    List<AutoCloseable> open = new ArrayList<>();
    List<RoutingBroker> rbs = new ArrayList<>();
    DatagramAuth auth = DatagramAuth.random(); // one key for this run's brokers
    List<Outcome> out = new ArrayList<>();
    try {
      for (int r = 0; r < brokers; r++) {
        RoutingBroker rb =
            RoutingBroker.start(
                "rb" + r,
                sitesX.zk(),
                any,
                AssignmentStrategy.TOPIC_COUNT,
                new WanEmulation(wan, Map.of(), r),
                auth);
        open.add(rb);
        rbs.add(rb);
      }
      List<EdgeBroker> edges = new ArrayList<>();
      List<MultipathExperiment.Client> pubs = new ArrayList<>();
      List<MultipathExperiment.Client> subs = new ArrayList<>();
      for (int s = 0; s < sites; s++) {
        EdgeBroker e =
            EdgeBroker.start(
                EdgeBrokerConfig.of("site" + s, "site" + s, sitesX.uri(s), any)
                    .withEmulation(new WanEmulation(wan, Map.of(), 100 + s))
                    .withAuth(auth),
                sitesX.zk());
        open.add(e);
        edges.add(e);
        MultipathExperiment.Client p = new MultipathExperiment.Client(sitesX.port(s), "pub" + s);
        MultipathExperiment.Client c = new MultipathExperiment.Client(sitesX.port(s), "sub" + s);
        open.add(p);
        open.add(c);
        pubs.add(p);
        subs.add(c);
      }
      int run = 0;
      for (double locality : localities) {
        run++;
        int local = (int) Math.round(locality * topics);
        List<String[]> subscribed = new ArrayList<>(); // {site, topic}
        for (int s = 0; s < sites; s++) {
          for (int t = 0; t < topics; t++) {
            String topic = "loc" + brokers + "-" + run + "/s" + s + "/t" + t; // never reused
            int at = t < local ? s : (s + 1) % sites; // local: same site; global: the next
            subs.get(at).subscribe(topic);
            subscribed.add(new String[] {Integer.toString(s), topic, Integer.toString(at)});
          }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (String[] x : subscribed) {
          if (x[0].equals(x[2])) {
            continue;
          }
          // the subscribing edge caches the topic (the publishing one loads it with its first
          // message): the entry is in the tree and assigned
          EdgeBroker subscriberEdge = edges.get(Integer.parseInt(x[2]));
          while (subscriberEdge
              .view()
              .topic(x[1])
              .filter(t -> t.assignment().isPresent() && !t.subscribers().isEmpty())
              .isEmpty()) {
            if (System.nanoTime() > deadline) {
              throw new IOException("global topic " + x[1] + " not ready");
            }
            LockSupport.parkNanos(10_000_000);
          }
        }
        subs.forEach(c -> c.latencies.clear());
        long cpuBefore = rbs.stream().mapToLong(RoutingBroker::relayCpuNanos).sum();
        long edgeCpuBefore = edges.stream().mapToLong(EdgeBroker::cpuNanos).sum();
        for (int i = 0; i < rounds; i++) {
          for (String[] x : subscribed) {
            pubs.get(Integer.parseInt(x[0])).publish(x[1], Long.toString(System.nanoTime()));
          }
          LockSupport.parkNanos(intervalMs * 1_000_000);
        }
        int expected = subscribed.size() * rounds;
        long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (subs.stream().mapToInt(c -> c.latencies.size()).sum() < expected
            && System.nanoTime() < settle) {
          LockSupport.parkNanos(10_000_000);
        }
        double cpu = (rbs.stream().mapToLong(RoutingBroker::relayCpuNanos).sum() - cpuBefore) / 1e6;
        double edgeCpu =
            (edges.stream().mapToLong(EdgeBroker::cpuNanos).sum() - edgeCpuBefore) / 1e6;
        Latencies all = new Latencies();
        subs.forEach(c -> c.latencies.forEach(all::record));
        out.add(
            new Outcome(
                locality,
                (int) all.count(),
                expected,
                all.meanMillis(Double.NaN),
                all.percentileMillis(0.99, Double.NaN),
                cpu / brokers,
                edgeCpu / sites));
        for (String[] x : subscribed) {
          subs.get(Integer.parseInt(x[2])).unsubscribe(x[1]);
        }
      }
      return out;
    } finally {
      java.util.Collections.reverse(open);
      for (AutoCloseable c : open) {
        try {
          c.close();
        } catch (Exception e) {
          // closing the rest
        }
      }
    }
  }
}
