package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/** {@link StandingStore}: what a restart reads back, and the start failures naming the field. */
class StandingStoreTest {
  @TempDir Path dir;

  private static final StandingStore.Row ROW =
      new StandingStore.Row(
          "s-1",
          PubSubRequest.Kind.SUBSCRIPTION,
          "fd6e:7073:1::3",
          7073,
          "price < 5",
          Optional.of("price < 9"),
          "alice");

  @Test
  void requestsAndTopologySurviveAReopen() {
    String url = "sqlite:" + dir.resolve("a.db");
    Topology t =
        Topology.EMPTY
            .addLink(new Link(new SwitchPort(1, 3), new SwitchPort(2, 3)))
            .addHost(
                new Host(
                    Ipv6Address.parse("fd6e:7073:1::3"),
                    new MacAddress(0x3),
                    new SwitchPort(1, 1)));
    try (StandingStore s = StandingStore.open(url, "camus-mr alpha 1")) {
      s.added(ROW).join();
      s.added(
              new StandingStore.Row(
                  "s-2", ROW.kind(), ROW.host(), 1, "price > 1", Optional.empty(), ""))
          .join();
      s.removed("s-2").join();
      s.topology(t);
    }
    try (StandingStore s = StandingStore.open(url, "camus-mr alpha 1")) {
      StandingStore.Contents k = s.load();
      assertThat(k.requests()).containsExactly(ROW);
      assertThat(k.topology().links()).isEqualTo(t.links());
      assertThat(k.topology().hosts()).isEqualTo(t.hosts());
      assertThat(k.topology().switches()).isEqualTo(t.switches());
    }
  }

  @Test
  void aStoreOfAnotherRoutingIsRefusedNamingTheField() {
    String url = "sqlite:" + dir.resolve("b.db");
    StandingStore.open(url, "camus-mr alpha 1").close();
    assertThatThrownBy(() -> StandingStore.open(url, "camus-tr alpha 16"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field routing")
        .hasMessageContaining("camus-mr alpha 1");
    assertThatThrownBy(() -> StandingStore.open("mysql:x", "camus-mr alpha 1"))
        .hasMessageContaining("--store must be sqlite:PATH or postgresql://");
    assertThatThrownBy(() -> StandingStore.open("postgresql://127.0.0.1:1", "camus-mr alpha 1"))
        .hasMessageContaining("--store postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE");
    assertThatThrownBy(
            () -> StandingStore.open("postgresql://nps:secret@127.0.0.1:1/x", "camus-mr alpha 1"))
        .as("no server there; the password is not shown")
        .hasMessageStartingWith("--store postgresql://nps@127.0.0.1:1/x: cannot open")
        .hasMessageNotContaining("secret");
  }

  @Test
  void aPleromaStoreIsRefusedUnderAnotherIndexOrCapNamingTheField() {
    String url = "sqlite:" + dir.resolve("p.db");
    Schema quotes =
        Schema.builder("quotes")
            .stringAttribute("symbol", 8)
            .intAttribute("price", 0, 100_000)
            .index(List.of("price"))
            .build();
    SpatialIndex index = new SpatialIndex(quotes, 12);
    StandingStore.open(url, StoredRouting.pleromaFields(index, PubSubLimits.DEFAULTS)).close();
    StandingStore.open(url, StoredRouting.pleromaFields(index, PubSubLimits.DEFAULTS)).close();
    assertThatThrownBy(
            () ->
                StandingStore.open(
                    url,
                    StoredRouting.pleromaFields(
                        new SpatialIndex(quotes, 10), PubSubLimits.DEFAULTS)))
        .hasMessageContaining("field index: holds requests of '[price] length 12'")
        .hasMessageContaining("not '[price] length 10'");
    assertThatThrownBy(
            () ->
                StandingStore.open(
                    url, StoredRouting.pleromaFields(index, PubSubLimits.DEFAULTS.withMaxCells(8))))
        .hasMessageContaining("field max_cells");
    Schema wider =
        Schema.builder("quotes")
            .stringAttribute("symbol", 8)
            .intAttribute("price", 0, 200_000)
            .index(List.of("price"))
            .build();
    assertThatThrownBy(
            () ->
                StandingStore.open(
                    url,
                    StoredRouting.pleromaFields(
                        new SpatialIndex(wider, 12), PubSubLimits.DEFAULTS)))
        .hasMessageContaining("field schema");
    assertThatThrownBy(() -> StandingStore.open(url, "camus-mr alpha 1"))
        .hasMessageContaining("field routing: holds requests of 'pleroma'");
  }

  @Test
  void aBadRowFailsTheLoadNamingTableRowAndField() throws Exception {
    Path file = dir.resolve("c.db");
    StandingStore.open("sqlite:" + file, "camus-mr alpha 1").close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      st.executeUpdate(
          "INSERT INTO nps_requests (id, kind, host, port, filter, region, owner)"
              + " VALUES ('s-9', 'SUBSCRIPTION', 'not-an-address', 7073, 'price < 5', NULL, '')");
    }
    try (StandingStore s = StandingStore.open("sqlite:" + file, "camus-mr alpha 1")) {
      assertThatThrownBy(s::load)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nps_requests row 's-9' field host");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE nps_requests SET host = 'fd6e::1', port = 70000");
    }
    try (StandingStore s = StandingStore.open("sqlite:" + file, "camus-mr alpha 1")) {
      assertThatThrownBy(s::load).hasMessageContaining("nps_requests row 's-9' field port");
    }
  }

  @Test
  void groupsSurviveAReopenAndABadGroupRowNamesItsField() throws Exception {
    Path file = dir.resolve("g.db");
    String url = "sqlite:" + file;
    Ipv6Address h2 = Ipv6Address.parse("fd6e:7073:1::2");
    Ipv6Address h3 = Ipv6Address.parse("fd6e:7073:1::3");
    GroupSpec quotes = GroupSpec.of("quotes/x", Set.of(h3), Set.of(h2), TreeStrategy.DIRECT);
    GroupSpec replaced =
        GroupSpec.of("quotes/x", Set.of(h2, h3), Set.of(h2), TreeStrategy.RENDEZVOUS_POINT);
    try (StandingStore s = StandingStore.open(url, "camus-mr alpha 1")) {
      s.groupPut(quotes).join();
      s.groupPut(GroupSpec.of("gone", Set.of(h2), Set.of(), TreeStrategy.DIRECT)).join();
      s.groupRemoved("gone").join();
      s.groupPut(replaced).join();
    }
    try (StandingStore s = StandingStore.open(url, "camus-mr alpha 1")) {
      assertThat(s.load().groups())
          .as("the last put of each group standing")
          .containsExactly(replaced);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE nps_groups SET sources = 'fd6e::2 nonsense'");
    }
    try (StandingStore s = StandingStore.open(url, "camus-mr alpha 1")) {
      assertThatThrownBy(s::load)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nps_groups row 'quotes/x' field sources");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE nps_groups SET sources = '', strategy = 'spt'");
    }
    try (StandingStore s = StandingStore.open(url, "camus-mr alpha 1")) {
      assertThatThrownBy(s::load).hasMessageContaining("nps_groups row 'quotes/x' field strategy");
    }
  }
}
