package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.StoredLife;

/**
 * The re-cut's steps (pure) and its journal: after a principals reload the store holds the re-cut
 * requests with their new regions, and none withdrawn, so a restart comes back with the new covers.
 * The switch's side: api.PrincipalsReloadTest.
 */
class RegionRecutTest {
  private static final Schema QUOTES =
      Schema.builder("quotes")
          .stringAttribute("symbol", 8)
          .intAttribute("price", 0, 100_000)
          .index(List.of("price"))
          .build();
  private static final SpatialIndex INDEX = new SpatialIndex(QUOTES, 12);
  private static final PubSubLimits LIMITS = PubSubLimits.DEFAULTS;
  private static final String A = "price < 1000";
  private static final String A_OR_B = "price < 1000 || price >= 50000";

  @TempDir Path dir;

  private static PubSubRequest request(String filter, Optional<String> region) {
    FilterCells.Compiled c = RegionRecut.covered(INDEX, LIMITS, filter, region);
    return new PubSubRequest(
        "s-1",
        PubSubRequest.Kind.SUBSCRIPTION,
        Ipv6Address.parse("fd6e:7073:1::3"),
        filter,
        c.normalForm(),
        40000,
        c.cells(),
        region);
  }

  private static Optional<RegionRecut.Region> region(String f) {
    return Optional.of(new RegionRecut.Region(Optional.of(f)));
  }

  @Test
  void eachRequestsStepFollowsFromItsNewRegion() {
    PubSubRequest r = request("true", Optional.of(A_OR_B));
    assertThat(RegionRecut.step(r, region(A_OR_B), INDEX, LIMITS, true))
        .isInstanceOf(RegionRecut.Step.Keep.class);
    assertThat(RegionRecut.step(r, Optional.empty(), INDEX, LIMITS, true))
        .isInstanceOf(RegionRecut.Step.Withdraw.class);
    // narrowed: a smaller cover, the same id, filter, host and port
    RegionRecut.Step narrowed = RegionRecut.step(r, region(A), INDEX, LIMITS, true);
    assertThat(narrowed).isInstanceOf(RegionRecut.Step.Recut.class);
    PubSubRequest next = ((RegionRecut.Step.Recut) narrowed).next();
    assertThat(next.id()).isEqualTo(r.id());
    assertThat(next.filter()).isEqualTo("true");
    assertThat(next.region()).hasValue(A);
    assertThat(next.cells()).isEqualTo(request("true", Optional.of(A)).cells());
    assertThat(next.cells()).isNotEqualTo(r.cells());
    // widened to anywhere: the filter's own cover
    RegionRecut.Step anywhere =
        RegionRecut.step(r, Optional.of(RegionRecut.Region.ANYWHERE), INDEX, LIMITS, true);
    assertThat(((RegionRecut.Step.Recut) anywhere).next().cells())
        .isEqualTo(request("true", Optional.empty()).cells());
    // another text, the same cover: only the record changes
    assertThat(RegionRecut.step(r, region("price >= 50000 || price < 1000"), INDEX, LIMITS, true))
        .isInstanceOf(RegionRecut.Step.Relabel.class);
    // a filter wholly outside the new region: withdrawn
    PubSubRequest high = request("price > 60000", Optional.of(A_OR_B));
    assertThat(RegionRecut.step(high, region(A), INDEX, LIMITS, true))
        .isInstanceOf(RegionRecut.Step.Withdraw.class);
  }

  @Test
  void theStoreHoldsTheReCutRequestsAndNotTheWithdrawnOnes() throws Exception {
    String url = "sqlite:" + dir.resolve("recut.db");
    SimulatedOpenFlowSwitch sw = StoredLife.recordingSwitch();
    String sub;
    PubSubRequest recut;
    try (StoredLife life = start(url)) {
      life.connect(sw);
      for (int i = 1; i <= 4; i++) {
        life.c().registerHost(OneSwitchNetwork.host(i)).get();
      }
      life.s()
          .advertise(
              "fd6e:7073:1::2",
              "true",
              Optional.empty(),
              new Access("pub", false, Optional.of(A_OR_B), "pub"))
          .get();
      sub =
          life.s()
              .subscribe(
                  "fd6e:7073:1::3",
                  "true",
                  40000,
                  Optional.empty(),
                  new Access("sub", false, Optional.of(A_OR_B), "sub"))
              .get()
              .request()
              .id();
      RegionRecut.Outcome o =
          life.s()
              .recut(
                  (owner, kind) -> owner.equals("sub") ? region(A) : Optional.empty()) // pub gone
              .get();
      assertThat(o.recut()).isEqualTo(1);
      assertThat(o.withdrawn()).isEqualTo(1);
      recut = life.s().request(sub).orElseThrow();
      assertThat(recut.region()).hasValue(A);
      life.store().flush();
      assertThat(life.store().load().requests())
          .singleElement()
          .satisfies(
              row -> {
                assertThat(row.id()).isEqualTo(sub);
                assertThat(row.region()).hasValue(A);
                assertThat(row.owner()).isEqualTo("sub");
                assertThat(row.filter()).isEqualTo("true");
              });
    }
    StoredLife.gone(sw);
    try (StoredLife again = start(url)) {
      assertThat(again.s().requests(PubSubRequest.Kind.ADVERTISEMENT)).isEmpty();
      PubSubRequest back = again.s().request(sub).orElseThrow();
      assertThat(back.region()).hasValue(A);
      assertThat(back.cells()).isEqualTo(recut.cells());
    }
    sw.close();
  }

  /**
   * A re-cut asked for during an online layout switch waits for the switch to end (the switch
   * refuses requests while it runs; a re-cut beside it would be lost or planned on the old index),
   * then covers under the new index.
   */
  @Test
  void aReCutDuringALayoutSwitchWaitsForItAndCoversUnderTheNewIndex() throws Exception {
    try (OneSwitchNetwork net = OneSwitchNetwork.startController()) {
      PubSubService s = PubSubService.attach(net.controller(), INDEX, LIMITS);
      net.connectSwitch(4);
      Access sub = new Access("sub", false, Optional.of(A_OR_B), "sub");
      String id =
          s.subscribe("fd6e:7073:1::3", "true", 40000, Optional.empty(), sub).get().request().id();
      SpatialIndex next = new SpatialIndex(QUOTES, 10);
      var switched = s.switchLayout(next, java.time.Duration.ofMillis(1500));
      var recut = s.recut((owner, kind) -> region(A));
      assertThat(recut).as("done before the switch ended").isNotDone();
      switched.get(30, java.util.concurrent.TimeUnit.SECONDS);
      RegionRecut.Outcome o = recut.get(30, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(o.recut()).isEqualTo(1);
      assertThat(s.index().length()).isEqualTo(10);
      PubSubRequest r = s.request(id).orElseThrow();
      assertThat(r.region()).hasValue(A);
      assertThat(r.cells())
          .isEqualTo(RegionRecut.covered(next, LIMITS, "true", r.region()).cells());
    }
  }

  private static StoredLife start(String url) throws java.io.IOException {
    StandingStore store = StandingStore.open(url, StoredRouting.pleromaFields(INDEX, LIMITS));
    return StoredLife.start(
        store,
        (c, st, rows, hold) -> StoredRouting.attachPleroma(c, INDEX, LIMITS, st, rows, hold));
  }
}
