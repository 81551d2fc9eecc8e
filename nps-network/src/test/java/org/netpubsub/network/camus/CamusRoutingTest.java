package org.netpubsub.network.camus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.network.camus.CamusFixtures.FAT_TREE;
import static org.netpubsub.network.camus.CamusFixtures.SPEC;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;

/** Worked examples on the test bed's k=4 fat tree: who gets a message, over which links. */
class CamusRoutingTest {
  static final Ipv6Address H1 = FatTree.hostAddress(1);
  static final Ipv6Address H3 = FatTree.hostAddress(3);
  static final Ipv6Address H16 = FatTree.hostAddress(16);

  static PacketSubscription sub(String id, String filter) {
    return PacketSubscription.parse(SPEC.schema(), id, filter);
  }

  static long[] googl(long price) {
    Event e =
        Event.builder(SPEC.schema())
            .set("stock", "GOOGL")
            .set("price", price)
            .set("shares", 100L)
            .set("side", "B")
            .build();
    return SPEC.values(e);
  }

  static CamusRouting routing(RoutingPolicy p, long alpha) {
    return CamusRouting.compile(
        FAT_TREE,
        SPEC,
        p,
        alpha,
        Map.of(
            H1, List.of(sub("a", "stock == \"GOOGL\"")),
            H16, List.of(sub("b", "stock == \"GOOGL\" && price > 1000000"))));
  }

  @Test
  void withinAPodTrStaysInThePodAndMrClimbsToACore() {
    // h3 (edge s14, pod 0) publishes GOOGL at $50: only h1 (s13, pod 0) wants it
    for (RoutingPolicy p : RoutingPolicy.values()) {
      CamusRouting r = routing(p, 1);
      Dissemination.Result res =
          Dissemination.of(r, UpPortChoice.byHash()).publish(H3, googl(500000));
      assertThat(res.receivers()).isEqualTo(HierarchyTest.bits(0));
      assertThat(res.maxCopies()).isEqualTo(1);
      Traffic t = new Traffic(FAT_TREE);
      t.add(res, HierarchyTest.bits(0));
      var edge = t.layers().get(0);
      var agg = t.layers().get(1);
      assertThat(edge.sent()).isEqualTo(2); // s14 up, s13 to h1
      assertThat(edge.extra()).isZero();
      // TR: the aggregation switch sends down to s13 only; MR: also up, to a core that drops it
      assertThat(agg.sent()).isEqualTo(p == RoutingPolicy.TR ? 1 : 2);
      assertThat(agg.extra()).isEqualTo(p == RoutingPolicy.TR ? 0 : 1);
      assertThat(t.layers().get(2).sent()).isZero();
    }
  }

  @Test
  void acrossPodsThroughOneCore() {
    // h3 publishes GOOGL at $150: h1 and h16 (pod 3) want it
    for (RoutingPolicy p : RoutingPolicy.values()) {
      Dissemination.Result res =
          Dissemination.of(routing(p, 1), UpPortChoice.byHash()).publish(H3, googl(1500000));
      assertThat(res.receivers()).isEqualTo(HierarchyTest.bits(0, 15));
      // s14 up, agg to s13, agg up, core to pod 3, agg to s20, s13 to h1, s20 to h16
      assertThat(res.transmissions()).hasSize(7);
    }
  }

  @Test
  void alphaWidensOnlyAboveTheEdge() {
    CamusRouting r = routing(RoutingPolicy.MR, 10_000_000); // $1000: price > 100.0000 → any price
    assertThat(r.options(13)).isEqualTo(CompileOptions.EXACT.withContentIds());
    assertThat(r.options(5).alpha()).isEqualTo(10_000_000);
    assertThat(r.compilation(20).widenedRules()).isZero();
    assertThat(r.compilation(1).widenedRules()).isEqualTo(1); // b, at the core
    // h3 publishes GOOGL at $50: the core forwards to pod 3 (widened), s20 drops it (exact)
    Dissemination.Result res =
        Dissemination.of(r, UpPortChoice.byHash()).publish(H3, googl(500000));
    assertThat(res.receivers()).isEqualTo(HierarchyTest.bits(0));
    Traffic t = new Traffic(FAT_TREE);
    t.add(res, HierarchyTest.bits(0));
    assertThat(t.layers().get(2).sent()).isEqualTo(1);
    assertThat(t.layers().get(2).extra()).isEqualTo(1);
    assertThat(t.layers().get(1).extra()).isEqualTo(2); // up to the core, down to s20
  }

  @Test
  void localRulesNameThePorts() {
    CamusRouting mr = routing(RoutingPolicy.MR, 1);
    assertThat(mr.localRules(13))
        .extracting(Object::toString)
        .containsExactly("stock == \"GOOGL\" : fwd(1)", "true : fwd(0)");
    assertThat(mr.localRules(1))
        .extracting(Object::toString)
        .containsExactly(
            "stock == \"GOOGL\" : fwd(1)", "stock == \"GOOGL\" && price > 1000000 : fwd(4)");
    CamusRouting tr = routing(RoutingPolicy.TR, 1);
    assertThat(tr.localRules(13))
        .extracting(Object::toString)
        .containsExactly(
            "stock == \"GOOGL\" : fwd(1)", "stock == \"GOOGL\" && price > 1000000 : fwd(0)");
    assertThat(tr.localRules(1)).hasSize(2); // cores have no up port
  }

  @Test
  void anUpdateRecompilesOnlyTheSwitchesHoldingTheHost() {
    CamusRouting mr = routing(RoutingPolicy.MR, 1);
    Map<Long, Compilation> before = new java.util.HashMap<>(mr.compilations());
    RoutingUpdate u = mr.update(H16, List.of(sub("c", "stock == \"MSFT\"")), List.of("b"));
    assertThat(u.diffs().keySet()).containsExactly(1L, 2L, 3L, 4L, 11L, 12L, 20L);
    assertThat(u.operations()).isPositive();
    for (long s : FAT_TREE.bottomUp()) {
      if (!u.diffs().containsKey(s)) {
        assertThat(mr.compilation(s)).isSameAs(before.get(s));
      }
    }
    assertThat(mr.subscriptions(H16)).extracting(PacketSubscription::id).containsExactly("c");
    CamusRouting tr = routing(RoutingPolicy.TR, 1);
    assertThat(tr.update(H16, List.of(sub("c", "stock == \"MSFT\"")), List.of()).switches())
        .isEqualTo(20);
  }

  @Test
  void aRejectedUpdateChangesNothing() {
    CamusRouting r = routing(RoutingPolicy.TR, 100);
    Map<Long, Compilation> before = new java.util.HashMap<>(r.compilations());
    assertThatThrownBy(() -> r.update(H1, List.of(), List.of("b")))
        .hasMessageContaining("has no subscription b");
    assertThatThrownBy(() -> r.update(H1, List.of(sub("b", "true")), List.of()))
        .hasMessageContaining("id b is taken");
    assertThatThrownBy(() -> r.update(H1, List.of(sub(LocalRules.TRUE_UP_ID, "true")), List.of()))
        .hasMessageContaining("is taken");
    assertThatThrownBy(() -> r.update(H1, List.of(sub("d", "stock prefix \"GO\"")), List.of("a")))
        .hasMessageContaining("matched exactly");
    assertThatThrownBy(
            () -> r.update(FatTree.hostAddress(17), List.of(sub("e", "true")), List.of()))
        .hasMessageContaining("no host");
    assertThat(r.compilations()).isEqualTo(before);
    assertThat(r.subscriptions(H1)).extracting(PacketSubscription::id).containsExactly("a");
  }

  @Test
  void compileRejectsSharedIdsAndUnknownHosts() {
    PacketSubscription a = sub("a", "true");
    assertThatThrownBy(
            () ->
                CamusRouting.compile(
                    FAT_TREE, SPEC, RoutingPolicy.MR, 1, Map.of(H1, List.of(a), H3, List.of(a))))
        .hasMessageContaining("used twice");
    assertThatThrownBy(
            () ->
                CamusRouting.compile(
                    FAT_TREE,
                    SPEC,
                    RoutingPolicy.MR,
                    1,
                    Map.of(FatTree.hostAddress(99), List.of(a))))
        .hasMessageContaining("no host");
  }

  @Test
  void observerSeesEverySwitchBottomUp() {
    List<Long> seen = new ArrayList<>();
    CamusRouting.compile(
        FAT_TREE, SPEC, RoutingPolicy.MR, 1, Map.of(), (dpid, c) -> seen.add(dpid));
    assertThat(seen).isEqualTo(FAT_TREE.bottomUp());
    BitSet none =
        Dissemination.of(routing(RoutingPolicy.MR, 1), UpPortChoice.byHash())
            .publish(H1, googl(1))
            .receivers();
    assertThat(none.isEmpty()).isTrue(); // h1 never gets its own message back
  }
}
