package org.netpubsub.controller.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.controlplane.ControlPlaneRequests.NET;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.netpubsub.controller.testing.ZooKeeperClients;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.Topology;

/**
 * The control plane across processes under any interleaving: requests submitted through random
 * processes while processes crash (their partitions taken over from ZooKeeper), new ones join
 * (partitions handed over) and tree links fail and come back (every process told) end with the
 * switches forwarding as one configurator processing the requests in submission order on the final
 * topology.
 */
class ClusterControlPlaneProperties {
  static final Partitions PARTITIONS = Partitions.uniform(8);

  record Process(CuratorFramework client, ClusterControlPlane plane) {
    void crash() {
      plane.halt(); // nothing released...
      client.close(); // ...until its session ends
    }
  }

  @Property(tries = 6, shrinking = ShrinkingMode.OFF) // a shrunk seed is just another seed
  void crashesJoinsAndTopologyChangesAnywhereEndAsOneConfiguratorInOrder(@ForAll long seed)
      throws Exception {
    Random random = new Random(seed);
    List<ControlRequest> requests = ControlPlaneRequests.random(random, 80);
    List<Process> started = new ArrayList<>();
    List<Process> live = new ArrayList<>();
    try (TestingServer zk = new TestingServer();
        SimulatedSwitches switches = new SimulatedSwitches(NET, random.nextInt(3) * 100_000L, 0)) {
      try {
        run(zk, switches, random, requests, started, live);
      } finally {
        for (Process p : live) { // while ZooKeeper still runs: crashed ones are gone already
          p.plane().close();
          p.client().close();
        }
      }
    }
  }

  /** Submits the requests through random live processes, crashing and starting some. */
  private static void run(
      TestingServer zk,
      SimulatedSwitches switches,
      Random random,
      List<ControlRequest> requests,
      List<Process> started,
      List<Process> live)
      throws Exception {
    Topology topology = NET;
    List<Link> treeLinks = new ArrayList<>(Configurator.on(NET).tree().orElseThrow().links());
    for (int i = 0; i < 2; i++) {
      live.add(start(zk, "p" + started.size(), topology, switches, started));
    }
    int crashes = 0;
    int changes = 0;
    for (ControlRequest r : requests) {
      live.get(random.nextInt(live.size())).plane().submit(r);
      int roll = random.nextInt(16);
      if (roll == 0 && live.size() > 1) {
        live.remove(random.nextInt(live.size())).crash();
        crashes++;
      } else if (roll == 1 && live.size() < 3) {
        live.add(start(zk, "p" + started.size(), topology, switches, started));
      } else if (roll == 2) {
        topology = toggle(topology, treeLinks, random, live);
        changes++;
      }
    }
    topology = toggle(topology, treeLinks, random, live); // one more, while the queues drain
    changes++;
    Configurator one = ControlPlaneRequests.reference(topology, requests);
    // they agree within milliseconds; a longer wait lets a failing run pass by accident
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    String difference;
    while ((difference = SwitchAgreement.firstDifference(switches, one)) != null
        || live.stream().mapToInt(p -> p.plane().serving().size()).sum() != PARTITIONS.size()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "after "
                + crashes
                + " crashes and "
                + changes
                + " topology changes, not as one configurator: "
                + difference);
      }
      Thread.sleep(20); // polling with a deadline, not a fixed wait
    }
    assertThat(switches.errors()).isZero();
  }

  /** A tree link fails, or the failed one comes back; every live process is told. */
  private static Topology toggle(
      Topology topology, List<Link> treeLinks, Random random, List<Process> live) {
    Topology next =
        topology.equals(NET)
            ? NET.removeLink(treeLinks.get(random.nextInt(treeLinks.size())))
            : NET;
    for (Process p : live) {
      p.plane().topologyChanged(next);
    }
    return next;
  }

  private static Process start(
      TestingServer zk,
      String id,
      Topology topology,
      SimulatedSwitches switches,
      List<Process> started)
      throws Exception {
    CuratorFramework c = ZooKeeperClients.started(zk.getConnectString());
    Process p =
        new Process(
            c,
            new ClusterControlPlane(
                c, "/nps", id, topology, PARTITIONS, switches, Duration.ofSeconds(5)));
    started.add(p);
    return p;
  }
}
