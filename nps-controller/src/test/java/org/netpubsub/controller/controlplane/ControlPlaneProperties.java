package org.netpubsub.controller.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.controlplane.ControlPlaneRequests.NET;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.content.index.Dz;
import org.netpubsub.controller.controlplane.ControlPlaneSettings.Balancing;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Partitions;

/**
 * The partitioned control plane under any interleaving the threads produce, random migrations and
 * reordered slices ends with the DP-config equal to its CP-config, and forwards every event as one
 * configurator processing the same requests in order would.
 */
class ControlPlaneProperties {
  @Property(tries = 25)
  void anyInterleavingEndsAsOneConfiguratorInOrder(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 4) int configurators,
      @ForAll @IntRange(min = 0, max = 4) int log2Partitions,
      @ForAll @IntRange(min = 1, max = 8) int sliceSize,
      @ForAll boolean balanced)
      throws Exception {
    Random random = new Random(seed);
    List<ControlRequest> requests = ControlPlaneRequests.random(random, 120);
    Partitions partitions = Partitions.uniform(1 << log2Partitions);
    ControlPlaneSettings settings =
        new ControlPlaneSettings(
            configurators,
            partitions,
            balanced ? Balancing.SPA_LB : Balancing.SPA,
            sliceSize,
            1.2,
            1,
            Duration.ofMillis(1),
            Duration.ofSeconds(10));
    try (SimulatedSwitches switches = new SimulatedSwitches(NET, random.nextInt(3) * 100_000L, 0);
        ControlPlane plane = new ControlPlane(NET, settings, switches, null)) {
      List<CompletableFuture<RequestDone>> done = new ArrayList<>();
      for (ControlRequest r : requests) {
        done.add(plane.submit(r));
        if (random.nextInt(10) == 0) {
          Dz p = partitions.all().get(random.nextInt(partitions.size()));
          plane.migrate(p, random.nextInt(configurators));
        }
      }
      for (CompletableFuture<RequestDone> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
      assertThat(switches.errors()).isZero();
      ControlPlaneTest.assertDataPlaneEqualsControlPlane(plane, switches);
      ControlPlaneTest.assertForwardsAsOneConfigurator(
          plane, ControlPlaneRequests.reference(requests));
    }
  }
}
