package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.multicast.MulticastGroups;
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
import org.netpubsub.http.PostgresServer;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * A single PLEROMA process restarted on the same store (docs/controller.md, "Restart") sends the
 * switch no flow-mod and no group-mod: its advertisements, subscriptions, multicast groups, hosts
 * and topology come back from the store before it reconciles, so the reconcile finds its content
 * flows, the groups' entries and the base flows (hosts' routes, discovery) as they should be, and
 * an Idempotency-Key repeated after the restart is answered with the restored request. Restarted on
 * an empty store (main before stop 43) it rewrites the switch, which the second case shows the
 * measure sees.
 */
class PleromaRestartTest {
  private static final SpatialIndex INDEX = new SpatialIndex(PubSubApiTest.QUOTES, 12);
  private static final Optional<String> KEY = Optional.of("order-17");

  /** h2 sends to h3 and h4 through the switch's group (PUT /v1/groups/quotes/x). */
  private static final GroupSpec GROUP =
      GroupSpec.of("quotes/x", Set.of(host(3), host(4)), Set.of(host(2)), TreeStrategy.DIRECT);

  private static Ipv6Address host(int i) {
    return Ipv6Address.parse("fd6e:7073:1::" + i);
  }

  @TempDir Path dir;

  private StoredLife start(String file) throws java.io.IOException {
    return startOn("sqlite:" + dir.resolve(file));
  }

  private StoredLife startOn(String url) throws java.io.IOException {
    StandingStore store =
        StandingStore.open(url, StoredRouting.pleromaFields(INDEX, PubSubLimits.DEFAULTS));
    return StoredLife.start(
        store,
        (c, st, rows, hold) ->
            StoredRouting.attachPleroma(c, INDEX, PubSubLimits.DEFAULTS, st, rows, hold));
  }

  /** Hosts 1–4, h2 publishing, h3 and h4 subscribed, one subscription withdrawn again. */
  private static List<String> firstLife(StoredLife first, SimulatedOpenFlowSwitch sw)
      throws Exception {
    first.connect(sw);
    for (int i = 1; i <= 4; i++) {
      first.c().registerHost(OneSwitchNetwork.host(i)).get();
    }
    first.s().advertise("fd6e:7073:1::2", "price < 60000").get();
    first.s().subscribe("fd6e:7073:1::3", "price < 50000", 7073).get();
    first.s().subscribe("fd6e:7073:1::4", "price > 5", 7074, KEY).get();
    String gone = first.s().subscribe("fd6e:7073:1::4", "price > 7", 7075).get().request().id();
    first.s().withdraw(gone).get();
    first.g().put(GROUP).get();
    first
        .g()
        .put(GroupSpec.of("gone", Set.of(host(4)), Set.of(host(3)), TreeStrategy.DIRECT))
        .get();
    assertThat(first.g().remove("gone").get()).isTrue();
    first.c().reconcile(OneSwitchNetwork.DPID).get();
    assertThat(sw.groups())
        .as("the multicast group's entries before the restart")
        .anyMatch(g -> g.groupId() >= GroupForwarding.GROUP_BASE);
    assertThat(delivered(sw, first.s())).as("the event before the restart").containsExactly(3L, 4L);
    return ids(first.s());
  }

  @Test
  void aPleromaControllerRestartedOnTheSameStoreChangesNoFlow() throws Exception {
    restartedOn("sqlite:" + dir.resolve("pleroma.db"));
  }

  @Test
  void onPostgresqlTheRestartChangesNoFlowEither() throws Exception {
    assumeTrue(PostgresServer.available(), "PostgreSQL is not installed, or not running as root");
    restartedOn(PostgresServer.shared().newDatabase()); // stopped when the JVM exits
  }

  private void restartedOn(String url) throws Exception {
    SimulatedOpenFlowSwitch sw = StoredLife.recordingSwitch();
    try {
      List<String> ids;
      var flows = new HashSet<FlowEntry>();
      var groups = new HashSet<>();
      try (StoredLife first = startOn(url)) {
        ids = firstLife(first, sw);
        flows.addAll(sw.flows());
        groups.addAll(sw.groups());
        assertThat(flows)
            .as("content flows before the restart")
            .anyMatch(f -> f.cookie() == ContentFlows.COOKIE);
      }
      StoredLife.gone(sw);

      try (StoredLife again = startOn(url)) {
        assertThat(ids(again.s()))
            .as("the standing advertisement and subscriptions back from the store")
            .hasSize(3)
            .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(again.g().snapshot().get().groups())
            .as("the multicast group back from the store")
            .extracting(GroupForwarding.Placement::spec)
            .containsExactly(GROUP);
        assertThatThrownBy(() -> again.g().remove(GROUP.name()).join())
            .as("a group's change during the hold")
            .hasCauseInstanceOf(MulticastGroups.Held.class);
        again.connect(sw);
        Wait.until(
            "the restart's hold ends", Duration.ofSeconds(20), () -> !again.hold().holding());
        again.c().reconcile(OneSwitchNetwork.DPID).get(); // the one the hold's end started
        assertThat(sw.receivedMods()).as("flow-mods and group-mods after the restart").isEmpty();
        assertThat(new HashSet<>(sw.flows())).as("flows").isEqualTo(flows);
        assertThat(new HashSet<>(sw.groups())).as("groups").isEqualTo(groups);
        assertThat(delivered(sw, again.s())).as("the event from port 2").containsExactly(3L, 4L);

        RequestOutcome repeat = again.s().subscribe("fd6e:7073:1::4", "price > 5", 7074, KEY).get();
        assertThat(repeat.request().id())
            .as("the Idempotency-Key repeated after the restart")
            .isEqualTo("s:order-17");
        assertThat(repeat.flowChanges()).isZero();
        assertThat(ids(again.s())).as("nothing added twice").hasSize(3);
        assertThatThrownBy(
                () -> again.s().subscribe("fd6e:7073:1::4", "price > 6", 7074, KEY).join())
            .as("the key with another request")
            .hasMessageContaining("Idempotency-Key order-17 was used for another request");
        assertThat(sw.receivedMods()).as("after the repeat").isEmpty();
        assertThat(again.g().remove(GROUP.name()).get()).as("the group deleted after").isTrue();
        assertThat(sw.groups()).noneMatch(g -> g.groupId() >= GroupForwarding.GROUP_BASE);

        String h3 =
            again.s().requests(PubSubRequest.Kind.SUBSCRIPTION).stream()
                .filter(r -> r.host().equals(Ipv6Address.parse("fd6e:7073:1::3")))
                .findFirst()
                .orElseThrow()
                .id();
        again.s().withdraw(h3).get(); // still withdrawable after the restart
        assertThat(delivered(sw, again.s())).as("after h3's withdrawal").containsExactly(4L);
        assertThatThrownBy(() -> again.s().switchLayout(INDEX, Duration.ZERO).join())
            .as("a layout switch would leave the store's index behind")
            .hasMessageContaining("--store");
      }
    } finally {
      sw.close();
    }
  }

  @Test
  void onAnEmptyStoreTheRestartRewritesTheSwitch() throws Exception {
    SimulatedOpenFlowSwitch sw = StoredLife.recordingSwitch();
    try {
      try (StoredLife first = start("first.db")) {
        firstLife(first, sw);
      }
      StoredLife.gone(sw);
      try (StoredLife fresh = start("other.db")) { // as main: nothing kept
        fresh.connect(sw);
        fresh.c().reconcile(OneSwitchNetwork.DPID).get();
        assertThat(sw.receivedMods()).as("the restart without the store").isNotEmpty();
        assertThat(delivered(sw, fresh.s())).as("nobody subscribed any more").isEmpty();
      }
    } finally {
      sw.close();
    }
  }

  private static List<String> ids(PubSubService s) {
    return java.util.stream.Stream.of(PubSubRequest.Kind.values())
        .flatMap(k -> s.requests(k).stream())
        .map(PubSubRequest::id)
        .toList();
  }

  /** The ports an event at price 10 from h2 (port 2) leaves by. */
  private static List<Long> delivered(SimulatedOpenFlowSwitch sw, PubSubService s) {
    Event e = Event.builder(s.index().schema()).set("symbol", "X").set("price", 10L).build();
    return sw.process(
            2,
            PacketHeaders.udp6(
                Ipv6Address.parse("fd6e:7073:1::2"),
                ContentFlows.address(s.index().dz(e)),
                40_000,
                ContentFlows.EVENT_PORT))
        .ports();
  }
}
