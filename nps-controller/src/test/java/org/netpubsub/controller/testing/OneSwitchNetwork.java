package org.netpubsub.controller.testing;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * The set-up of the REST API tests: a controller on an ephemeral port and, once the apps under test
 * are attached, one simulated switch (ports 1–4) with host {@code fd6e:7073:1::i} on port i.
 */
public final class OneSwitchNetwork implements AutoCloseable {
  public static final long DPID = 0x2a;

  private final NetworkController controller;
  private SimulatedOpenFlowSwitch sw;

  private OneSwitchNetwork(NetworkController controller) {
    this.controller = controller;
  }

  /** A controller without a switch: attach apps to {@link #controller()} before connecting. */
  public static OneSwitchNetwork startController() throws java.io.IOException {
    return startController(ControllerConfig.defaults());
  }

  /** The same with {@code config} (e.g. a cluster's reconcile scope), on an ephemeral port. */
  public static OneSwitchNetwork startController(ControllerConfig config)
      throws java.io.IOException {
    return new OneSwitchNetwork(NetworkController.start(config.withPort("127.0.0.1", 0)));
  }

  /** Connects the switch, waits until the controller knows it, and registers hosts 1..hosts. */
  public OneSwitchNetwork connectSwitch(int hosts) throws Exception {
    sw = SimulatedOpenFlowSwitch.builder().dpid(DPID).ports(1, 2, 3, 4).build();
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    Wait.until(
        "the switch",
        Duration.ofSeconds(10),
        () -> {},
        () -> controller.topology().hasSwitch(DPID));
    for (int i = 1; i <= hosts; i++) {
      controller.registerHost(host(i)).get();
    }
    return this;
  }

  /**
   * Waits until the switch holds exactly its desired flows and groups. A host registration
   * completes once the topology has it, before the reconcile that installs its routes (and one
   * asked for while another runs waits for its turn), so a test comparing the switch with the
   * desired state waits for this first.
   */
  public OneSwitchNetwork awaitDesiredState() {
    Wait.until(
        "switch " + Long.toHexString(DPID) + " to hold its desired flows and groups",
        Duration.ofSeconds(10),
        () ->
            new HashSet<>(sw.flows()).equals(new HashSet<>(controller.desiredFlows(DPID)))
                && new HashSet<>(sw.groups())
                    .equals(new HashSet<>(controller.desired(DPID).groups())));
    return this;
  }

  public static Host host(int i) {
    return new Host(
        Ipv6Address.parse("fd6e:7073:1::" + i),
        new MacAddress(0x0200_0000_0000L + i),
        new SwitchPort(DPID, i));
  }

  public NetworkController controller() {
    return controller;
  }

  /** The switch, once connected. */
  public SimulatedOpenFlowSwitch sw() {
    return sw;
  }

  @Override
  public void close() {
    if (sw != null) {
      sw.close();
    }
    controller.close();
  }
}
