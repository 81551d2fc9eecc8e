package org.netpubsub.controller.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.controller.controlplane.ControlPlaneRequests.NET;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.controller.testing.ZooKeeperClients;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.Topology;

/**
 * Several controller processes (each with its own ZooKeeper session) against real ZooKeeper: the
 * work is shared, and killing a process or a ZooKeeper member in the middle of a burst loses no
 * request; afterwards the switches hold exactly what one configurator would install.
 */
class ClusterControlPlaneTest {
  static final Partitions PARTITIONS = Partitions.uniform(8);
  static final Duration ACK_TIMEOUT = Duration.ofSeconds(5);

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void processesShareThePartitionsAndEveryRequestCompletes() throws Exception {
    TestingServer zk = track(new TestingServer());
    SimulatedSwitches switches = track(SimulatedSwitches.instant(NET));
    ClusterControlPlane a = process(zk.getConnectString(), "a", switches);
    ClusterControlPlane b = process(zk.getConnectString(), "b", switches);
    poll(() -> a.serving().size() == 4 && b.serving().size() == 4, "both serve half");

    List<ControlRequest> requests = ControlPlaneRequests.random(new Random(3), 150);
    List<CompletableFuture<RequestDone>> done = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      done.add((i % 2 == 0 ? a : b).submit(requests.get(i)));
    }
    for (CompletableFuture<RequestDone> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    assertThat(a.processed()).isPositive();
    assertThat(b.processed()).isPositive();
    assertSwitchesHold(switches, ControlPlaneRequests.reference(requests));
  }

  @Test
  void refusesDuplicatesAndUnknownWithdrawalsAcrossProcesses() throws Exception {
    TestingServer zk = track(new TestingServer());
    SimulatedSwitches switches = track(SimulatedSwitches.instant(NET));
    ClusterControlPlane a = process(zk.getConnectString(), "a", switches);
    ClusterControlPlane b = process(zk.getConnectString(), "b", switches);
    var h = NET.hosts().firstKey();
    ControlRequest s = ControlRequest.subscribe("s1", h, 7000, DzSet.of(Dz.parse("01")));
    a.submit(s).get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> b.submit(s)).hasMessageContaining("exists");
    assertThatThrownBy(() -> b.submit(ControlRequest.advertise("s1", h, DzSet.ALL).withdrawal()))
        .hasMessageContaining("no advertisement s1");
    assertThatThrownBy(() -> b.submit(ControlRequest.subscribe("a/b", h, 1, DzSet.ALL)))
        .hasMessageContaining("must be");
    b.submit(s.withdrawal()).get(10, TimeUnit.SECONDS); // withdrawn through the other process
    assertThatThrownBy(() -> a.submit(s.withdrawal())).hasMessageContaining("no subscription s1");
  }

  @Test
  void killingAProcessMidBurstLosesNothing() throws Exception {
    TestingServer zk = track(new TestingServer());
    SimulatedSwitches switches = track(new SimulatedSwitches(NET, 500_000, 0));
    CuratorFramework victimClient = client(zk.getConnectString());
    ClusterControlPlane victim =
        new ClusterControlPlane(victimClient, "/nps", "a", NET, PARTITIONS, switches, ACK_TIMEOUT);
    ClusterControlPlane survivor = process(zk.getConnectString(), "b", switches);
    poll(() -> victim.serving().size() == 4 && survivor.serving().size() == 4, "both serve");

    List<ControlRequest> requests = ControlPlaneRequests.random(new Random(5), 300);
    List<CompletableFuture<RequestDone>> done = new ArrayList<>();
    for (ControlRequest r : requests) {
      done.add(survivor.submit(r));
    }
    poll(() -> victim.processed() >= 20, "the victim is mid-burst");
    victim.halt(); // a crash: nothing released...
    victimClient.close(); // ...until its session ends
    for (CompletableFuture<RequestDone> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    // its own 4, then the victim's 4, each rebuilt from ZooKeeper and resynchronised
    poll(() -> survivor.takeovers() == 8, "the survivor took over every partition");
    assertThat(survivor.serving()).hasSize(8);
    assertSwitchesHold(switches, ControlPlaneRequests.reference(requests));
  }

  @Test
  void losingAZooKeeperMemberMidBurstLosesNothing() throws Exception {
    TestingCluster ensemble = track(new TestingCluster(3));
    ensemble.start();
    SimulatedSwitches switches = track(new SimulatedSwitches(NET, 200_000, 0));
    ClusterControlPlane a = process(ensemble.getConnectString(), "a", switches);
    ClusterControlPlane b = process(ensemble.getConnectString(), "b", switches);
    poll(() -> a.serving().size() + b.serving().size() == 8, "all partitions served");

    List<ControlRequest> requests = ControlPlaneRequests.random(new Random(9), 200);
    List<CompletableFuture<RequestDone>> done = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      done.add((i % 2 == 0 ? a : b).submit(requests.get(i)));
    }
    poll(() -> a.processed() + b.processed() >= 30, "mid-burst");
    ensemble.killServer(ensemble.getInstances().iterator().next());
    for (CompletableFuture<RequestDone> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    assertSwitchesHold(switches, ControlPlaneRequests.reference(requests));
  }

  @Test
  void aTreeLinkFailingAndComingBackIsReconciledInEveryPartition() throws Exception {
    TestingServer zk = track(new TestingServer());
    SimulatedSwitches switches = track(new SimulatedSwitches(NET, 100_000, 0));
    List<ClusterControlPlane> cluster =
        List.of(
            process(zk.getConnectString(), "a", switches),
            process(zk.getConnectString(), "b", switches),
            process(zk.getConnectString(), "c", switches));
    poll(
        () -> cluster.stream().mapToInt(p -> p.serving().size()).sum() == 8,
        "all partitions served");
    List<ControlRequest> requests = ControlPlaneRequests.random(new Random(11), 240);
    List<ControlRequest> before = requests.subList(0, 80);
    List<ControlRequest> during = requests.subList(80, 160);
    List<ControlRequest> after = requests.subList(160, 240);
    awaitAll(submit(cluster, before));

    Link down = Configurator.on(NET).tree().orElseThrow().links().first();
    Topology without = NET.removeLink(down);
    List<CompletableFuture<RequestDone>> pending = submit(cluster, during.subList(0, 40));
    cluster.forEach(p -> p.topologyChanged(without)); // mid-burst
    pending.addAll(submit(cluster, during.subList(40, 80)));
    awaitAll(pending);
    awaitAll(submit(cluster, after.subList(0, 40)));
    assertThat(Configurator.on(without).tree().orElseThrow().links()).doesNotContain(down);
    awaitAgreement(switches, without, requests.subList(0, 200), cluster, 8);

    cluster.forEach(p -> p.topologyChanged(NET)); // the link is back
    awaitAll(submit(cluster, after.subList(40, 80)));
    awaitAgreement(switches, NET, requests, cluster, 16);
  }

  @Test
  void aPartWaitsForItsHostUntilItsOwnerLearnsIt() throws Exception {
    TestingServer zk = track(new TestingServer());
    SimulatedSwitches switches = track(SimulatedSwitches.instant(NET));
    var hosts = new ArrayList<>(NET.hosts().keySet());
    var publisher = hosts.get(0);
    var subscriber = hosts.get(hosts.size() - 1);
    ClusterControlPlane a = process(zk.getConnectString(), "a", switches);
    ClusterControlPlane b = // has not learned the subscriber's host yet
        process(zk.getConnectString(), "b", NET.removeHost(subscriber), switches);
    poll(() -> a.serving().size() == 4 && b.serving().size() == 4, "both serve half");
    List<ControlRequest> requests =
        List.of(
            ControlRequest.advertise("p1", publisher, DzSet.ALL),
            ControlRequest.subscribe("s1", subscriber, 7000, DzSet.ALL));
    a.submit(requests.get(0)).get(10, TimeUnit.SECONDS);
    CompletableFuture<RequestDone> subscribed = a.submit(requests.get(1)); // a knows the host

    poll(() -> b.hostWaits() > 0, "b's parts waiting for the host");
    assertThat(subscribed).isNotDone();
    b.topologyChanged(NET); // b's discovery learns the host
    subscribed.get(10, TimeUnit.SECONDS);
    assertThat(b.refused()).isZero();
    assertSwitchesHold(switches, ControlPlaneRequests.reference(requests));
  }

  @Test
  void aPartWhoseHostStaysUnknownRefusesTheWholeRequest() throws Exception {
    TestingServer zk = track(new TestingServer());
    SimulatedSwitches switches = track(SimulatedSwitches.instant(NET));
    var hosts = new ArrayList<>(NET.hosts().keySet());
    var publisher = hosts.get(0);
    var subscriber = hosts.get(hosts.size() - 1);
    ClusterControlPlane a = process(zk.getConnectString(), "a", switches);
    ClusterControlPlane b = // never learns the subscriber's host (registered by hand at a only)
        process(zk.getConnectString(), "b", NET.removeHost(subscriber), switches);
    b.hostGrace = Duration.ofMillis(200);
    poll(() -> a.serving().size() == 4 && b.serving().size() == 4, "both serve half");
    ControlRequest ad = ControlRequest.advertise("p1", publisher, DzSet.ALL);
    a.submit(ad).get(10, TimeUnit.SECONDS);
    ControlRequest sub = ControlRequest.subscribe("s1", subscriber, 7000, DzSet.ALL);

    CompletableFuture<RequestDone> refused = a.submit(sub); // spans a's and b's partitions
    assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(RequestRefusal.class)
        .hasMessageContaining("not known to b");
    assertThat(b.refused()).isPositive();
    assertThat(a.standing("s1")).isEmpty();
    // the parts a applied are withdrawn: the switches hold the advertisement alone
    poll(
        () ->
            SwitchAgreement.firstDifference(switches, ControlPlaneRequests.reference(List.of(ad)))
                == null,
        "a's parts withdrawn");
    // a retry under the same id answers the same refusal, at any process
    assertThatThrownBy(() -> b.submitOrJoin(sub).get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(RequestRefusal.class);
    assertThat(a.processed()).isPositive();
  }

  @Test
  void aRetryUnderTheSameIdJoinsTheFirstEvenAfterItsProcessDied() throws Exception {
    TestingServer zk = track(new TestingServer());
    SimulatedSwitches switches = track(new SimulatedSwitches(NET, 200_000, 0));
    CuratorFramework firstClient = client(zk.getConnectString());
    ClusterControlPlane first =
        new ClusterControlPlane(firstClient, "/nps", "a", NET, PARTITIONS, switches, ACK_TIMEOUT);
    ClusterControlPlane second = process(zk.getConnectString(), "b", switches);
    poll(() -> first.serving().size() == 4 && second.serving().size() == 4, "both serve half");
    var hosts = new ArrayList<>(NET.hosts().keySet());
    ControlRequest ad = ControlRequest.advertise("p1", hosts.get(0), DzSet.ALL);
    ControlRequest sub = ControlRequest.subscribe("s-k.7", hosts.get(3), 7000, DzSet.ALL);
    second.submit(ad).get(10, TimeUnit.SECONDS);

    first.submitOrJoin(sub); // queued; its process dies before answering
    first.halt();
    firstClient.close();
    second.submitOrJoin(sub).get(30, TimeUnit.SECONDS); // the client's retry elsewhere
    second.submitOrJoin(sub).get(10, TimeUnit.SECONDS); // and once more, after it stands
    assertThat(second.standing("s-k.7")).contains(sub);
    assertThatThrownBy(
            () ->
                second.submitOrJoin(
                    ControlRequest.subscribe("s-k.7", hosts.get(3), 7001, DzSet.ALL)))
        .hasMessageContaining("names another request");
    assertSwitchesHold(switches, ControlPlaneRequests.reference(List.of(ad, sub)));
    // one withdrawal removes it: it stood once
    second.submit(sub.withdrawal()).get(10, TimeUnit.SECONDS);
    assertSwitchesHold(switches, ControlPlaneRequests.reference(List.of(ad)));
  }

  /** Each request through the next process in turn. */
  private static List<CompletableFuture<RequestDone>> submit(
      List<ClusterControlPlane> cluster, List<ControlRequest> requests) throws Exception {
    List<CompletableFuture<RequestDone>> out = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      out.add(cluster.get(i % cluster.size()).submit(requests.get(i)));
    }
    return out;
  }

  private static void awaitAll(List<CompletableFuture<RequestDone>> done) throws Exception {
    for (CompletableFuture<RequestDone> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Once every partition has been rebuilt {@code rebuilds} times in all, the switches forward as
   * one configurator holding the requests on {@code topology}.
   */
  private static void awaitAgreement(
      SimulatedSwitches switches,
      Topology topology,
      List<ControlRequest> requests,
      List<ClusterControlPlane> cluster,
      int rebuilds) {
    poll(
        () -> cluster.stream().mapToLong(ClusterControlPlane::rebuilds).sum() >= rebuilds,
        "every partition rebuilt");
    assertSwitchesHold(switches, ControlPlaneRequests.reference(topology, requests));
  }

  /** Every event leaves every switch exactly as it would under one configurator. */
  private static void assertSwitchesHold(SimulatedSwitches switches, Configurator one) {
    assertThat(switches.errors()).isZero();
    assertThat(SwitchAgreement.firstDifference(switches, one)).isNull();
  }

  private ClusterControlPlane process(String connect, String id, SimulatedSwitches switches)
      throws Exception {
    return process(connect, id, NET, switches);
  }

  /** A process whose discovery knows {@code topology} (say, without a host it has not learned). */
  private ClusterControlPlane process(
      String connect, String id, Topology topology, SimulatedSwitches switches) throws Exception {
    return track(
        new ClusterControlPlane(
            client(connect), "/nps", id, topology, PARTITIONS, switches, ACK_TIMEOUT));
  }

  private CuratorFramework client(String connect) {
    return track(ZooKeeperClients.started(connect));
  }

  private <T extends AutoCloseable> T track(T t) {
    open.add(t);
    return t;
  }

  private static void poll(BooleanSupplier condition, String what) {
    Wait.until(what, Duration.ofSeconds(20), condition);
  }
}
