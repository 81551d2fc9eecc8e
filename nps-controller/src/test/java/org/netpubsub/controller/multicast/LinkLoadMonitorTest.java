package org.netpubsub.controller.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.PortCounters;
import org.netpubsub.controller.testing.Cabling;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Traffic engineering over real OpenFlow port-stats requests: on a triangle 1-2-3, the tree from h1
 * to h2 and h3 uses the direct links; when switch 1's counters say link 1-3 is busy, the tree moves
 * to 1-2-3 (the segment moves from switch 1 to switch 2), and back once the link is quiet.
 */
class LinkLoadMonitorTest {
  private static final Duration T = Duration.ofSeconds(10);
  private static final Link ONE_THREE = Link.of(3, 2, 1, 2);

  private final Map<Long, SimulatedOpenFlowSwitch> switches = new HashMap<>();
  private final Cabling cabling = new Cabling(switches);
  private NetworkController controller;
  private MulticastGroups groups;
  private LinkLoadMonitor monitor;
  private long busyBytes;

  @BeforeEach
  void start() throws Exception {
    controller =
        NetworkController.start(
            ControllerConfig.defaults().withPort("127.0.0.1", 0).withProbeInterval(1000));
    cabling.cable(1, 1, 2, 1).cable(2, 2, 3, 1).cable(3, 2, 1, 2);
    for (long dpid = 1; dpid <= 3; dpid++) {
      SimulatedOpenFlowSwitch sw =
          SimulatedOpenFlowSwitch.builder().dpid(dpid).ports(1, 2, 9).build();
      switches.put(dpid, sw);
      sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    }
    Wait.until("three links", T, cabling::relay, () -> controller.topology().links().size() == 3);
    for (int i = 1; i <= 3; i++) {
      controller.registerHost(host(i)).get();
    }
    groups = MulticastGroups.attach(controller);
    monitor =
        LinkLoadMonitor.start(
            controller,
            controller.server(),
            groups,
            new LinkLoadMonitor.Settings(1e6, 0.65, 0.5, Duration.ZERO, Duration.ofMillis(100)));
  }

  @AfterEach
  void stop() {
    monitor.close();
    switches.values().forEach(SimulatedOpenFlowSwitch::close);
    controller.close();
  }

  static Host host(int i) {
    return new Host(
        Ipv6Address.parse("fd6e:7073:1::" + i),
        new MacAddress(0x0200_0000_0000L + i),
        new SwitchPort(i, 9));
  }

  @Test
  void treesLeaveABusyLinkAndComeBackWhenItIsQuiet() throws Exception {
    groups
        .put(
            GroupSpec.of(
                "t",
                Set.of(host(2).address(), host(3).address()),
                Set.of(host(1).address()),
                TreeStrategy.DIRECT))
        .get();
    assertThat(switches.get(1L).groups()).as("h1 replicates at its own switch").hasSize(1);
    assertThat(switches.get(2L).groups()).isEmpty();

    // link 1-3 carries 1 MB per poll from switch 1: far above 65 % of 1 Mbit/s. The load is kept
    // up until every sign of the move is seen at once: between two reads of a quiet link the
    // monitor may already move the tree back.
    Wait.until(
        "the tree off 1-3, its segment moved from switch 1 to switch 2",
        T,
        this::busyAndCabled,
        () ->
            !switches.get(2L).groups().isEmpty()
                && switches.get(1L).groups().isEmpty()
                && groups.snapshot().join().avoidedLinks().equals(Set.of(ONE_THREE))
                && monitor.utilization().getOrDefault(ONE_THREE, 0.0) > 0.65);

    Wait.until(
        "the tree back on 1-3",
        T,
        cabling::relay,
        () -> switches.get(2L).groups().isEmpty() && switches.get(1L).groups().size() == 1);
    assertThat(groups.snapshot().get().avoidedLinks()).isEmpty();
  }

  /**
   * The load on 1-3, while the cables keep carrying the controller's LLDP probes: links not probed
   * for three probe intervals expire, and a test thread that stalls longer than that on a busy
   * machine would lose link 1-3 and then never see the tree come back on it. Hence probes every
   * second (3 s to expire): at 200 ms, the setup alone outlasted 600 ms at load 28.
   */
  private void busyAndCabled() {
    busy();
    cabling.relay();
  }

  private void busy() {
    busyBytes += 1_000_000;
    switches.get(1L).setPortCounters(new PortCounters(2, 0, busyBytes, 0, busyBytes / 1000));
  }
}
