package org.netpubsub.controller.local;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.sim.PacketOutRecord;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * A controller's embedded software network ({@code nps local}): the ten switches of {@link
 * LocalTopology}, each a {@link SimulatedOpenFlowSwitch} connected to the controller over loopback
 * TCP (so the controller installs its flows exactly as on Open vSwitch), cables that carry the
 * controller's LLDP probes between them (so it discovers the links itself), hosts registered as
 * clients attach, and the {@link LocalSwitch} data plane. The pub/sub service tells clients where
 * the local switch is ({@code local_switch} in {@code GET /v1/pubsub}).
 */
public final class LocalNetwork implements Closeable {
  private final NetworkController controller;
  private final LocalTopology wiring;
  private final Map<Long, SimulatedOpenFlowSwitch> switches = new ConcurrentHashMap<>();
  private final Map<Ipv6Address, Host> hosts = new ConcurrentHashMap<>();
  private LocalSwitch dataPlane;

  private LocalNetwork(NetworkController controller, LocalTopology wiring) {
    this.controller = controller;
    this.wiring = wiring;
  }

  /**
   * Connects the switches to {@code controller}, waits until it has discovered every link, and
   * opens the data plane for {@code service}'s index.
   *
   * @throws IllegalStateException when the links are not discovered within {@code timeout}
   */
  public static LocalNetwork start(
      NetworkController controller, PubSubService service, Duration timeout) throws IOException {
    if (!service.routing().equals("pleroma")) {
      throw new IllegalArgumentException("the local network routes with pleroma only");
    }
    LocalNetwork n = new LocalNetwork(controller, new LocalTopology());
    try {
      n.connect(timeout, false);
      n.dataPlane =
          new LocalSwitch(new LocalFabric(n.wiring, n::process), n::attach, service::index);
      InetSocketAddress at = n.dataPlane.address();
      service.localSwitch("[::1]:" + at.getPort());
      return n;
    } catch (IOException | RuntimeException e) {
      n.close();
      throw e;
    }
  }

  /**
   * The switches and cables alone, without the extra host ports and without the data plane: the
   * controller's start-up warm-up, which runs requests and publishes nothing. On a loaded machine
   * the full network's set-up took most of the warm-up's budget (docs/results/ovs-response-p99.md,
   * stop 37): its 280 ports are all probed each LLDP interval, these 40. Connects them to {@code
   * controller}, and once it knows every switch announces each cabled port up, so that it probes
   * them at once rather than at its next interval (a probe that reached a switch whose handshake
   * was not done yet is lost); waits until it has discovered every link.
   *
   * @throws IllegalStateException when the links are not discovered within {@code timeout}
   */
  public static LocalNetwork switchesOnly(NetworkController controller, Duration timeout) {
    LocalNetwork n = new LocalNetwork(controller, new LocalTopology(0));
    try {
      n.connect(timeout, true);
      return n;
    } catch (RuntimeException e) {
      n.close();
      throw e;
    }
  }

  private void connect(Duration timeout, boolean probeCablesAtOnce) {
    InetSocketAddress of =
        new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort());
    List<SimulatedOpenFlowSwitch> built = new ArrayList<>();
    wiring
        .switchPorts()
        .forEach(
            (dpid, ports) -> {
              SimulatedOpenFlowSwitch sw =
                  SimulatedOpenFlowSwitch.builder()
                      .dpid(dpid)
                      .ports(ports.stream().mapToLong(Long::longValue).toArray())
                      .recordReceived(false)
                      .packetOutHook(r -> relay(dpid, r))
                      .build();
              switches.put(dpid, sw);
              built.add(sw);
            });
    long deadline = System.nanoTime() + timeout.toNanos();
    for (SimulatedOpenFlowSwitch sw : built) {
      await(sw.connect(of), deadline, "switch " + sw.dpid() + " to connect");
    }
    if (probeCablesAtOnce) {
      waitUntil(
          () -> controller.topology().switches().size() >= switches.size(),
          deadline,
          5,
          () ->
              "the controller knew "
                  + controller.topology().switches().size()
                  + " of the local network's "
                  + switches.size()
                  + " switches in "
                  + timeout.toSeconds()
                  + " s");
      for (Link cable : wiring.cables()) {
        for (SwitchPort end : List.of(cable.a(), cable.b())) {
          switches.get(end.dpid()).setPortUp(end.port(), true);
        }
      }
    }
    waitUntil(
        () ->
            controller.topology().links().size() >= wiring.cables().size()
                && controller.topology().switches().size() >= switches.size(),
        deadline,
        20,
        () ->
            "the controller discovered "
                + controller.topology().links().size()
                + " of the local network's "
                + wiring.cables().size()
                + " links in "
                + timeout.toSeconds()
                + " s");
  }

  /** Polls {@code done} every {@code pollMillis} until it holds, or fails with {@code what}. */
  private static void waitUntil(
      BooleanSupplier done, long deadline, long pollMillis, Supplier<String> what) {
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(what.get());
      }
      sleep(pollMillis);
    }
  }

  /** A packet-out (an LLDP probe) leaving by a cabled port enters the switch at the other end. */
  private void relay(long dpid, PacketOutRecord r) {
    for (Action a : r.actions()) {
      if (a instanceof Action.Output o) {
        wiring
            .peer(SwitchPort.of(dpid, o.port()))
            .ifPresent(
                peer -> {
                  SimulatedOpenFlowSwitch to = switches.get(peer.dpid());
                  if (to != null && to.isConnected()) {
                    to.sendPacketIn(peer.port(), 0, UnicastRouting.COOKIE, r.frame());
                  }
                });
      }
    }
  }

  private org.netpubsub.network.openflow.Forwarding process(
      long dpid, long inPort, org.netpubsub.network.openflow.PacketHeaders h) {
    return switches.get(dpid).process(inPort, h);
  }

  /**
   * The host of {@code address} (registered at its slot if new), or a new host at the next free
   * slot; registered with the controller before this returns.
   */
  synchronized Host attach(Optional<Ipv6Address> address) {
    if (address.isPresent() && hosts.containsKey(address.get())) {
      return hosts.get(address.get());
    }
    int slot;
    if (address.isPresent()) {
      slot =
          wiring
              .slotOf(address.get())
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "the local network's hosts are fd6e:7073:1::1 to fd6e:7073:1::"
                              + Integer.toHexString(wiring.capacity())
                              + ", not "
                              + address.get()));
    } else {
      slot = freeSlot(1);
    }
    Host h = host(slot);
    await(controller.registerHost(h), System.nanoTime() + 5_000_000_000L, "host registration");
    hosts.put(h.address(), h);
    return h;
  }

  /**
   * {@code n} new hosts at the next free slots, registered with the controller before this returns;
   * the registrations are queued on its loop together rather than each waited for in turn.
   */
  public synchronized List<Host> addHosts(int n) {
    List<Host> added = new ArrayList<>();
    List<java.util.concurrent.CompletableFuture<Host>> registered = new ArrayList<>();
    int slot = 0;
    for (int i = 0; i < n; i++) {
      slot = freeSlot(slot + 1);
      Host h = host(slot);
      added.add(h);
      registered.add(controller.registerHost(h));
    }
    long deadline = System.nanoTime() + 5_000_000_000L;
    for (java.util.concurrent.CompletableFuture<Host> f : registered) {
      await(f, deadline, "host registration");
    }
    added.forEach(h -> hosts.put(h.address(), h));
    return added;
  }

  private int freeSlot(int from) {
    int slot = from;
    while (slot <= wiring.capacity() && hosts.containsKey(LocalTopology.address(slot))) {
      slot++;
    }
    if (slot > wiring.capacity()) {
      throw new IllegalStateException(
          "the local network is full (" + wiring.capacity() + " hosts): restart nps local");
    }
    return slot;
  }

  private Host host(int slot) {
    return new Host(
        LocalTopology.address(slot),
        new MacAddress(0x0200_0000_0000L + slot),
        wiring.attachment(slot));
  }

  /** A new host at the next free slot, registered with the controller before this returns. */
  public Host addHost() {
    return attach(Optional.empty());
  }

  /** Where clients attach. */
  public InetSocketAddress switchAddress() {
    return dataPlane().address();
  }

  public LocalSwitch.Counters counters() {
    return dataPlane().counters();
  }

  private LocalSwitch dataPlane() {
    if (dataPlane == null) {
      throw new IllegalStateException("a network of switches only has no data plane");
    }
    return dataPlane;
  }

  /** The hosts attached so far, by address. */
  public Map<Ipv6Address, Host> hosts() {
    return new TreeMap<>(hosts);
  }

  /** Content flows per switch, as the switches hold them (by dpid). */
  public Map<Long, Integer> contentFlows() {
    Map<Long, Integer> out = new TreeMap<>();
    switches.forEach(
        (dpid, sw) -> {
          int n = 0;
          for (FlowEntry f : sw.flows()) {
            if (f.cookie() == ContentFlows.COOKIE) {
              n++;
            }
          }
          out.put(dpid, n);
        });
    return out;
  }

  private static <T> T await(java.util.concurrent.Future<T> f, long deadlineNanos, String what) {
    try {
      return f.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("timed out waiting for " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + what, e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    if (dataPlane != null) {
      try {
        dataPlane.close();
      } catch (IOException e) {
        // closing sockets: nothing to do
      }
    }
    switches.values().forEach(SimulatedOpenFlowSwitch::close);
  }
}
