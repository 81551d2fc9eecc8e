package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RequestOutcome;
import org.netpubsub.controller.pubsub.StandingStore;
import org.netpubsub.controller.pubsub.StoredRouting;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.StoredLife;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * A Camus controller restarted on the same store (docs/controller.md, "Restart") sends the switch
 * no flow-mod or group-mod: its subscriptions, hosts and topology come back from the store before
 * it reconciles, so the reconcile finds the tables as they should be, and an Idempotency-Key
 * repeated after the restart is answered with the restored request. Without the store (main before
 * stop 42) the restarted controller reconciles the switch to a pipeline without subscriptions,
 * which the second case shows the measure sees.
 */
class CamusRestartTest {
  private static final SpatialIndex INDEX = new SpatialIndex(PubSubApiTest.QUOTES, 12);
  private static final RoutingPolicy MR = RoutingPolicy.parse("mr");
  private static final Optional<String> KEY = Optional.of("order-17");

  @TempDir Path dir;

  private StoredLife start(String file) throws java.io.IOException {
    StandingStore store =
        StandingStore.open("sqlite:" + dir.resolve(file), StoredRouting.routing(MR, 1));
    return StoredLife.start(
        store,
        (c, st, rows, hold) ->
            StoredRouting.attachCamus(c, INDEX, PubSubLimits.DEFAULTS, MR, 1, st, rows, hold));
  }

  @Test
  void aControllerRestartedOnTheSameStoreChangesNoTable() throws Exception {
    SimulatedOpenFlowSwitch sw = StoredLife.recordingSwitch();
    try {
      List<String> ids;
      var flows = new HashSet<>();
      var groups = new HashSet<>();
      try (StoredLife first = start("camus.db")) {
        first.connect(sw);
        for (int i = 1; i <= 4; i++) {
          first.c().registerHost(OneSwitchNetwork.host(i)).get();
        }
        first.s().subscribe("fd6e:7073:1::3", "price < 50000", 7073).get();
        first.s().subscribe("fd6e:7073:1::4", "symbol == \"X\"", 7074, KEY).get();
        String gone = first.s().subscribe("fd6e:7073:1::4", "price > 7", 7075).get().request().id();
        first.s().withdraw(gone).get();
        first.c().reconcile(OneSwitchNetwork.DPID).get();
        ids =
            first.s().requests(PubSubRequest.Kind.SUBSCRIPTION).stream().map(r -> r.id()).toList();
        flows.addAll(sw.flows());
        groups.addAll(sw.groups());
        assertThat(groups).as("Camus's groups before the restart").isNotEmpty();
      }
      StoredLife.gone(sw);

      try (StoredLife again = start("camus.db")) {
        assertThat(again.s().requests(PubSubRequest.Kind.SUBSCRIPTION))
            .as("the standing subscriptions back from the store")
            .extracting(PubSubRequest::id)
            .containsExactlyInAnyOrderElementsOf(ids);
        again.connect(sw);
        Wait.until(
            "the restart's hold ends", Duration.ofSeconds(20), () -> !again.hold().holding());
        again.c().reconcile(OneSwitchNetwork.DPID).get(); // the one the hold's end started
        assertThat(sw.receivedMods()).as("flow-mods and group-mods after the restart").isEmpty();
        assertThat(new HashSet<>(sw.flows())).as("flows").isEqualTo(flows);
        assertThat(new HashSet<>(sw.groups())).as("groups").isEqualTo(groups);
        assertThat(delivered(sw, again.s())).as("the event from port 2").containsExactly(3L, 4L);

        RequestOutcome repeat =
            again.s().subscribe("fd6e:7073:1::4", "symbol == \"X\"", 7074, KEY).get();
        assertThat(repeat.request().id())
            .as("the Idempotency-Key repeated after the restart")
            .isEqualTo("s:order-17");
        assertThat(repeat.flowChanges()).isZero();
        assertThat(again.s().requests(PubSubRequest.Kind.SUBSCRIPTION))
            .as("nothing added twice")
            .hasSize(2);
        assertThatThrownBy(
                () -> again.s().subscribe("fd6e:7073:1::4", "symbol == \"Y\"", 7074, KEY).join())
            .as("the key with another request")
            .hasMessageContaining("Idempotency-Key order-17 was used for another request");
        assertThat(sw.receivedMods()).as("after the repeat").isEmpty();

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
    SimulatedOpenFlowSwitch sw = StoredLife.recordingSwitch();
    try {
      try (StoredLife first = start("first.db")) {
        first.connect(sw);
        for (int i = 1; i <= 4; i++) {
          first.c().registerHost(OneSwitchNetwork.host(i)).get();
        }
        first.s().subscribe("fd6e:7073:1::3", "price < 50000", 7073).get();
        first.c().reconcile(OneSwitchNetwork.DPID).get();
      }
      StoredLife.gone(sw);
      try (StoredLife fresh = start("other.db")) { // as main: nothing kept
        fresh.connect(sw);
        fresh.c().reconcile(OneSwitchNetwork.DPID).get();
        assertThat(sw.receivedMods()).as("the restart without the store").isNotEmpty();
      }
    } finally {
      sw.close();
    }
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
