package org.netpubsub.controller.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.controller.controlplane.ControlPlaneRequests.NET;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.controller.controlplane.ControlPlaneSettings.Balancing;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.ContentTable;

class ControlPlaneTest {
  static final Ipv6Address H1 = NET.hosts().firstKey();
  static final Ipv6Address H16 = NET.hosts().lastKey();

  @Test
  void aRequestSpanningPartitionsCompletesWhenEveryPartIsAcknowledged() throws Exception {
    try (SimulatedSwitches switches = new SimulatedSwitches(NET, 2_000_000, 0);
        ControlPlane plane =
            new ControlPlane(
                NET, ControlPlaneSettings.of(2, Partitions.uniform(4)), switches, null)) {
      plane.submit(ControlRequest.advertise("a", H1, DzSet.ALL)).get(5, TimeUnit.SECONDS);
      RequestDone d =
          plane
              .submit(ControlRequest.subscribe("s", H16, 7000, DzSet.of(Dz.parse("0"))))
              .get(5, TimeUnit.SECONDS);
      assertThat(d.parts()).isEqualTo(2); // {0} → {00, 01}
      assertThat(d.latencyNanos()).isGreaterThanOrEqualTo(2_000_000); // waited for the acks
      assertThat(d.flowMods()).isPositive();
      assertDataPlaneEqualsControlPlane(plane, switches);
    }
  }

  @Test
  void refusesBadRequestsAtOnceAndQueuesNothing() {
    try (SimulatedSwitches switches = SimulatedSwitches.instant(NET);
        ControlPlane plane =
            new ControlPlane(
                NET, ControlPlaneSettings.of(1, Partitions.uniform(4)), switches, null)) {
      Ipv6Address stranger = new Ipv6Address(0x20010db8ffff0000L, 9);
      assertThatThrownBy(() -> plane.submit(ControlRequest.advertise("a", stranger, DzSet.ALL)))
          .hasMessageContaining("not known");
      assertThatThrownBy(
              () -> plane.submit(ControlRequest.subscribe("x", H1, 1, DzSet.ALL).withdrawal()))
          .hasMessageContaining("no subscription x");
      assertThat(plane.queueLengths())
          .allSatisfy(m -> assertThat(m.values()).allMatch(l -> l == 0));
    }
  }

  @Test
  void aLostAcknowledgementStallsThePartitionUntilTheSwitchIsReadAndCorrected() throws Exception {
    ControlPlaneSettings settings =
        ControlPlaneSettings.of(2, Partitions.uniform(4)).withAckTimeout(Duration.ofMillis(100));
    try (SimulatedSwitches switches = SimulatedSwitches.instant(NET);
        ControlPlane plane = new ControlPlane(NET, settings, switches, null)) {
      plane.submit(ControlRequest.advertise("a", H1, DzSet.ALL)).get(5, TimeUnit.SECONDS);
      long edge = NET.host(H16).orElseThrow().attachment().dpid();
      switches.loseNext(edge, 3); // the connection drops the next batches, acks included
      List<CompletableFuture<RequestDone>> burst = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        burst.add(
            plane.submit(
                ControlRequest.subscribe(
                    "s" + i, H16, 7000 + i, DzSet.of(Dz.parse("01" + i % 2)))));
      }
      for (CompletableFuture<RequestDone> f : burst) {
        f.get(10, TimeUnit.SECONDS);
      }
      assertThat(switches.batchesLost()).isEqualTo(3);
      assertThat(plane.resyncs()).isPositive();
      assertDataPlaneEqualsControlPlane(plane, switches);
      assertForwardsAsOneConfigurator(plane, ControlPlaneRequests.reference(burstRequests()));
    }
  }

  @Test
  void spaLbMovesPartitionsOffARisingOverload() throws Exception {
    // every partition on configurator 0, slow switches: its queues rise while 1 idles
    Partitions partitions = Partitions.uniform(8);
    Map<Dz, Integer> allOnZero = new java.util.TreeMap<>();
    partitions.all().forEach(p -> allOnZero.put(p, 0));
    ControlPlaneSettings settings =
        new ControlPlaneSettings(
            2,
            partitions,
            Balancing.SPA_LB,
            1,
            1.5,
            2,
            Duration.ofMillis(1),
            Duration.ofSeconds(10));
    try (SimulatedSwitches switches = new SimulatedSwitches(NET, 1_000_000, 0);
        ControlPlane plane = new ControlPlane(NET, settings, switches, allOnZero)) {
      plane.submit(ControlRequest.advertise("a", H1, DzSet.ALL)).get(5, TimeUnit.SECONDS);
      Random random = new Random(7);
      List<CompletableFuture<RequestDone>> all = new ArrayList<>();
      // requests arrive faster than 1 per ms: configurator 0's queues rise until the monitor acts
      for (int i = 0; i < 20_000 && plane.migrations() == 0; i++) {
        Dz cell = Dz.EMPTY;
        for (int b = 0; b < 6; b++) {
          cell = cell.append(random.nextInt(2));
        }
        all.add(plane.submit(ControlRequest.subscribe("s" + i, H16, 1000 + i, DzSet.of(cell))));
      }
      for (CompletableFuture<RequestDone> f : all) {
        f.get(60, TimeUnit.SECONDS);
      }
      assertThat(plane.migrations()).isPositive();
      assertThat(plane.assignment().values()).contains(1);
      assertDataPlaneEqualsControlPlane(plane, switches);
    }
  }

  @Test
  void aCompletedSubscriptionReceivesItsEventsAtThatInstant() throws Exception {
    // the "no false negatives after each completed request", checked in the completion
    // callback itself while other configurators keep writing and partitions migrate
    ControlPlaneSettings settings =
        ControlPlaneSettings.of(4, Partitions.uniform(16)).withBalancing(Balancing.SPA_LB);
    Random random = new Random(11);
    List<Ipv6Address> hosts = new ArrayList<>(NET.hosts().keySet());
    hosts.remove(H1); // the publisher
    List<String> misses = java.util.Collections.synchronizedList(new ArrayList<>());
    try (SimulatedSwitches switches = new SimulatedSwitches(NET, 200_000, 0);
        ControlPlane plane = new ControlPlane(NET, settings, switches, null)) {
      plane.submit(ControlRequest.advertise("a", H1, DzSet.ALL)).get(5, TimeUnit.SECONDS);
      List<CompletableFuture<RequestDone>> all = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        Ipv6Address host = hosts.get(random.nextInt(hosts.size()));
        DzSet cells = DzSet.of(randomDz(random, random.nextInt(5)));
        int port = 7000 + i;
        Dz event = extended(random, cells.get(0));
        all.add(
            plane
                .submit(ControlRequest.subscribe("s" + i, host, port, cells))
                .whenComplete(
                    (d, err) -> {
                      String want = host + ":" + port;
                      if (!switches.receivers(H1, ContentFlows.address(event)).contains(want)) {
                        misses.add(want + " missed " + event);
                      }
                    }));
        if (i % 50 == 0) {
          plane.migrate(partitionsOf(settings).get(random.nextInt(16)), random.nextInt(4));
        }
      }
      for (CompletableFuture<RequestDone> f : all) {
        f.get(30, TimeUnit.SECONDS);
      }
    }
    assertThat(misses).isEmpty();
  }

  private static List<Dz> partitionsOf(ControlPlaneSettings s) {
    return s.partitions().all();
  }

  private static Dz randomDz(Random random, int length) {
    Dz d = Dz.EMPTY;
    for (int b = 0; b < length; b++) {
      d = d.append(random.nextInt(2));
    }
    return d;
  }

  /** An event inside the cell, at full depth. */
  private static Dz extended(Random random, Dz cell) {
    Dz d = cell;
    while (d.length() < ControlPlaneRequests.EVENT_DEPTH) {
      d = d.append(random.nextInt(2));
    }
    return d;
  }

  /** The switches hold exactly the CP-configs' content flows. */
  static void assertDataPlaneEqualsControlPlane(ControlPlane plane, SimulatedSwitches switches) {
    for (long dpid : NET.switches()) {
      List<FlowEntry> content =
          switches.flows(dpid).stream().filter(f -> f.cookie() == ContentFlows.COOKIE).toList();
      assertThat(content)
          .as("switch %x", dpid)
          .containsExactlyInAnyOrderElementsOf(plane.flows(dpid));
    }
  }

  /** Every event is forwarded as one configurator holding the same requests would forward it. */
  static void assertForwardsAsOneConfigurator(ControlPlane plane, Configurator one) {
    for (long dpid : NET.switches()) {
      for (Dz event : ControlPlaneRequests.events()) {
        assertThat(ContentTable.lookup(plane.table(dpid), event))
            .as("event %s at %x", event, dpid)
            .isEqualTo(ContentTable.lookup(one.table(dpid), event));
      }
    }
  }

  /** The requests of the lost-acknowledgement test, in order. */
  private static List<ControlRequest> burstRequests() {
    List<ControlRequest> requests = new ArrayList<>();
    requests.add(ControlRequest.advertise("a", H1, DzSet.ALL));
    for (int i = 0; i < 6; i++) {
      requests.add(
          ControlRequest.subscribe("s" + i, H16, 7000 + i, DzSet.of(Dz.parse("01" + i % 2))));
    }
    return requests;
  }
}
