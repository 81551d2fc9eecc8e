package org.netpubsub.controller.southbound;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;

/**
 * A started server on a random loopback port with short timeouts, a recording listener, and the
 * simulated switches a test connects to it; {@link #close} ends them all.
 */
final class Fixture implements AutoCloseable {
  static final Duration WAIT = Duration.ofSeconds(10);

  final RecordingListener events = new RecordingListener();
  final OpenFlowServer server;
  private final List<SimulatedOpenFlowSwitch> switches = new ArrayList<>();

  /**
   * A healthy switch is declared dead only after 5 s of silence: under load 40 a simulated switch's
   * event loop went more than 400 ms without answering an echo, and healthy switches of
   * HandshakeTest, EventsTest and AcknowledgedUpdatesTest were dropped as DEAD_PEER.
   *
   * <p>A healthy switch's barrier is awaited {@link #WAIT} (production's default barrier timeout is
   * 10 s too): at load 18-28 a simulated switch answered the first batch of a fresh JVM in 0.06-0.8
   * s and the last of 100 pipelined batches (each barrier queued behind the others') in 0.4-1.7 s,
   * so a 0.5 s barrier timeout failed batches of a healthy switch. Tests of the barrier timeout
   * pass their own short one.
   */
  Fixture() throws IOException {
    this(Duration.ofMillis(100), Duration.ofMillis(5000), WAIT);
  }

  Fixture(Duration echo, Duration deadPeer, Duration barrier) throws IOException {
    server =
        OpenFlowServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .echoInterval(Poll.scaled(echo))
            .deadPeerTimeout(Poll.scaled(deadPeer))
            .barrierTimeout(Poll.scaled(barrier))
            // no test here times a handshake out: 20 switches at once on a loaded machine need not
            // finish theirs within 3 s
            .handshakeTimeout(Poll.scaled(WAIT))
            .listener(events)
            .build()
            .start();
  }

  InetSocketAddress address() {
    return server.localAddress();
  }

  /** Builds, connects and tracks a simulated switch. */
  SimulatedOpenFlowSwitch connect(SimulatedOpenFlowSwitch.Builder b) {
    SimulatedOpenFlowSwitch sim = b.build();
    switches.add(sim);
    Poll.get(sim.connect(address()), WAIT);
    return sim;
  }

  /** Connects a well-behaved switch and waits until the server has finished its handshake. */
  SwitchHandle connected(SimulatedOpenFlowSwitch.Builder b) {
    SimulatedOpenFlowSwitch sim = connect(b);
    return awaitHandle(sim.dpid());
  }

  SwitchHandle awaitHandle(long dpid) {
    return Poll.value(
        "switch " + dpid + " connected", WAIT, () -> server.switchHandle(dpid).orElse(null));
  }

  @Override
  public void close() {
    switches.forEach(SimulatedOpenFlowSwitch::close);
    server.close();
  }
}
