package org.netpubsub.controller.testing;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.app.RestartHold;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.StandingStore;
import org.netpubsub.controller.pubsub.StoredGroups;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;

/**
 * One life of a controller on a {@code --store} (docs/controller.md, "Restart"), as {@code nps
 * controller} starts it: the store read and the hold made before the controller starts, the pub/sub
 * app and the multicast groups restored from the store's rows. The restart tests start two lives on
 * one store.
 */
public record StoredLife(
    NetworkController c, PubSubService s, MulticastGroups g, StandingStore store, RestartHold hold)
    implements AutoCloseable {
  /** How the app is restored: {@code StoredRouting.attachCamus} or {@code attachPleroma}. */
  public interface App {
    PubSubService attach(
        NetworkController c, StandingStore store, List<StandingStore.Row> rows, RestartHold hold);
  }

  public static StoredLife start(StandingStore store, App app) throws java.io.IOException {
    StandingStore.Contents k = store.load();
    RestartHold hold = new RestartHold(k.topology(), 30_000, store::topology);
    NetworkController c =
        NetworkController.start(
            ControllerConfig.defaults().withPort("127.0.0.1", 0).withRestartHold(hold));
    MulticastGroups g = MulticastGroups.attach(c);
    StoredGroups.restore(g, store, k.groups(), hold); // before the app's restore ends the hold
    return new StoredLife(c, app.attach(c, store, k.requests(), hold), g, store, hold);
  }

  /** A switch (ports 1–4) recording what it receives, as {@link OneSwitchNetwork}'s. */
  public static SimulatedOpenFlowSwitch recordingSwitch() {
    return SimulatedOpenFlowSwitch.builder()
        .dpid(OneSwitchNetwork.DPID)
        .ports(1, 2, 3, 4)
        .recordReceived(true)
        .build();
  }

  /** Connects {@code sw} and waits until the controller knows it. */
  public void connect(SimulatedOpenFlowSwitch sw) throws Exception {
    sw.connect(new InetSocketAddress("127.0.0.1", c.openflowAddress().getPort())).get();
    Wait.until(
        "the switch", Duration.ofSeconds(10), () -> c.topology().hasSwitch(OneSwitchNetwork.DPID));
  }

  /** After {@link #close}: the switch has seen the controller go (it clears what it received). */
  public static void gone(SimulatedOpenFlowSwitch sw) {
    Wait.until(
        "the switch sees the controller gone", Duration.ofSeconds(10), () -> !sw.isConnected());
    sw.clearReceived();
  }

  @Override
  public void close() {
    c.close();
    store.close();
  }
}
