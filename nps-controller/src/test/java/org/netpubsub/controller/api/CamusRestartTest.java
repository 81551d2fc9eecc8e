package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.app.RestartHold;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.StandingStore;
import org.netpubsub.controller.pubsub.StoredCamus;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * A Camus controller restarted on the same store (docs/controller.md, "Restart") sends the switch
 * no flow-mod or group-mod: its subscriptions, hosts and topology come back from the store before
 * it reconciles, so the reconcile finds the tables as they should be. Without the store (main
 * before stop 42) the restarted controller reconciles the switch to a pipeline without
 * subscriptions, which the second case shows the measure sees.
 */
class CamusRestartTest {
  private static final SpatialIndex INDEX = new SpatialIndex(PubSubApiTest.QUOTES, 12);
  private static final RoutingPolicy MR = RoutingPolicy.parse("mr");

  @TempDir Path dir;

  private record Life(NetworkController c, PubSubService s, StandingStore store, RestartHold hold)
      implements AutoCloseable {
    static Life start(String url) throws java.io.IOException {
      StandingStore store = StandingStore.open(url, StoredCamus.routing(MR, 1));
      StandingStore.Contents k = store.load();
      RestartHold hold = new RestartHold(k.topology(), 30_000, store::topology);
      NetworkController c =
          NetworkController.start(
              ControllerConfig.defaults().withPort("127.0.0.1", 0).withRestartHold(hold));
      PubSubService s =
          StoredCamus.attach(c, INDEX, PubSubLimits.DEFAULTS, MR, 1, store, k.requests(), hold);
      return new Life(c, s, store, hold);
    }

    @Override
    public void close() {
      c.close();
      store.close();
    }
  }

  @Test
  void aControllerRestartedOnTheSameStoreChangesNoTable() throws Exception {
    String url = "sqlite:" + dir.resolve("camus.db");
    SimulatedOpenFlowSwitch sw =
        SimulatedOpenFlowSwitch.builder()
            .dpid(OneSwitchNetwork.DPID)
            .ports(1, 2, 3, 4)
            .recordReceived(true)
            .build();
    try {
      List<String> ids;
      var flows = new HashSet<>();
      var groups = new HashSet<>();
      try (Life first = Life.start(url)) {
        connect(sw, first.c());
        for (int i = 1; i <= 4; i++) {
          first.c().registerHost(OneSwitchNetwork.host(i)).get();
        }
        first.s().subscribe("fd6e:7073:1::3", "price < 50000", 7073).get();
        first.s().subscribe("fd6e:7073:1::4", "symbol == \"X\"", 7074).get();
        String gone = first.s().subscribe("fd6e:7073:1::4", "price > 7", 7075).get().request().id();
        first.s().withdraw(gone).get();
        first.c().reconcile(OneSwitchNetwork.DPID).get();
        ids =
            first.s().requests(PubSubRequest.Kind.SUBSCRIPTION).stream().map(r -> r.id()).toList();
        flows.addAll(sw.flows());
        groups.addAll(sw.groups());
        assertThat(groups).as("Camus's groups before the restart").isNotEmpty();
      }
      Wait.until(
          "the switch sees the controller gone", Duration.ofSeconds(10), () -> !sw.isConnected());
      sw.clearReceived();

      try (Life again = Life.start(url)) {
        assertThat(again.s().requests(PubSubRequest.Kind.SUBSCRIPTION))
            .as("the standing subscriptions back from the store")
            .extracting(PubSubRequest::id)
            .containsExactlyInAnyOrderElementsOf(ids);
        connect(sw, again.c());
        Wait.until(
            "the restart's hold ends", Duration.ofSeconds(20), () -> !again.hold().holding());
        again.c().reconcile(OneSwitchNetwork.DPID).get(); // the one the hold's end started
        assertThat(sw.receivedMods()).as("flow-mods and group-mods after the restart").isEmpty();
        assertThat(new HashSet<>(sw.flows())).as("flows").isEqualTo(flows);
        assertThat(new HashSet<>(sw.groups())).as("groups").isEqualTo(groups);
        assertThat(delivered(sw, again.s())).as("the event from port 2").containsExactly(3L, 4L);

        String h3 =
            again.s().requests(PubSubRequest.Kind.SUBSCRIPTION).stream()
                .filter(r -> r.host().equals(Ipv6Address.parse("fd6e:7073:1::3")))
                .findFirst()
                .orElseThrow()
                .id();
        again.s().withdraw(h3).get(); // still withdrawable after the restart
        assertThat(delivered(sw, again.s())).as("after h3's withdrawal").containsExactly(4L);
      }
    } finally {
      sw.close();
    }
  }

  @Test
  void withoutTheStoreTheRestartRewritesCamusTables() throws Exception {
    SimulatedOpenFlowSwitch sw =
        SimulatedOpenFlowSwitch.builder()
            .dpid(OneSwitchNetwork.DPID)
            .ports(1, 2, 3, 4)
            .recordReceived(true)
            .build();
    try {
      try (Life first = Life.start("sqlite:" + dir.resolve("first.db"))) {
        connect(sw, first.c());
        for (int i = 1; i <= 4; i++) {
          first.c().registerHost(OneSwitchNetwork.host(i)).get();
        }
        first.s().subscribe("fd6e:7073:1::3", "price < 50000", 7073).get();
        first.c().reconcile(OneSwitchNetwork.DPID).get();
      }
      Wait.until(
          "the switch sees the controller gone", Duration.ofSeconds(10), () -> !sw.isConnected());
      sw.clearReceived();
      try (Life fresh = Life.start("sqlite:" + dir.resolve("other.db"))) { // as main: nothing kept
        connect(sw, fresh.c());
        fresh.c().reconcile(OneSwitchNetwork.DPID).get();
        assertThat(sw.receivedMods()).as("the restart without the store").isNotEmpty();
      }
    } finally {
      sw.close();
    }
  }

  private static void connect(SimulatedOpenFlowSwitch sw, NetworkController c) throws Exception {
    sw.connect(new InetSocketAddress("127.0.0.1", c.openflowAddress().getPort())).get();
    Wait.until(
        "the switch", Duration.ofSeconds(10), () -> c.topology().hasSwitch(OneSwitchNetwork.DPID));
  }

  /** The ports an event of symbol X at price 10 from h2 (port 2) leaves by. */
  private static List<Long> delivered(SimulatedOpenFlowSwitch sw, PubSubService s) {
    Event e = Event.builder(s.index().schema()).set("symbol", "X").set("price", 10L).build();
    Ipv6Address to = QueryAddressLayout.of(MessageSpec.fromSchema(s.index().schema())).address(e);
    return sw.process(
            2,
            PacketHeaders.udp6(
                Ipv6Address.parse("fd6e:7073:1::2"), to, 40_000, ContentFlows.EVENT_PORT))
        .ports();
  }
}
