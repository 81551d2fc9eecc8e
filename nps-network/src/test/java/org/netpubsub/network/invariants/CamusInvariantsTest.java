package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The Camus pipeline's check on deliberately broken batches (mutants) on a depth-2 binary tree
 * (switch 1 the root, 2 and 3 below, 4-7 the leaves with a host each): a correct update is
 * accepted, two switches sending copies back to each other loop, a leaf without its table-0 entry
 * is a black hole; each is refused with its query class and path, and the index is left as it was.
 */
class CamusInvariantsTest {
  private static final Topology TREE = TestTopologies.tree(2, 2);

  private static FlowInvariants installed(CamusTables c) {
    FlowInvariants checker = new FlowInvariants(TREE, CamusTables.EVENT_PORT);
    for (long dpid : TREE.switches()) {
      checker.put(dpid, c.flows(dpid), c.groups(dpid));
    }
    return checker;
  }

  private static CamusTables tables() {
    return new CamusTables(TREE, 7, RoutingPolicy.TR, 6);
  }

  @Test
  void theCompiledUpdatesAreAccepted() {
    CamusTables c = tables();
    FlowInvariants checker = installed(c);
    for (int i = 0; i < 10; i++) {
      var u = c.randomUpdate();
      Map<Long, FlowInvariants.Change> changes = new java.util.TreeMap<>();
      u.diffs().keySet().forEach(d -> changes.put(d, checker.changeTo(d, c.flows(d), c.groups(d))));
      assertThat(checker.offerRegion(changes, QueryAddressLayout.prefix())).isEmpty();
    }
  }

  /** Switch s's state with every ALL group also sending a copy back where it came from. */
  private static FlowInvariants.Change reflecting(FlowInvariants checker, CamusTables c, long s) {
    List<GroupEntry> broken = new ArrayList<>();
    for (GroupEntry g : c.groups(s)) {
      List<Bucket> b = new ArrayList<>(g.buckets());
      if (g.type() == GroupType.ALL) {
        b.add(Bucket.of(Action.output(OfPort.IN_PORT)));
      }
      broken.add(new GroupEntry(g.groupId(), g.type(), b));
    }
    return checker.changeTo(s, c.flows(s), broken);
  }

  @Test
  void twoSwitchesSendingCopiesBackLoop() {
    // the root and switch 2 each send a copy back by the port it came in: 1 -> 2 -> 1 -> ...
    CamusTables c = tables();
    FlowInvariants checker = installed(c);
    var before = checker.snapshot();
    Optional<Violation> v =
        checker.offerRegion(
            new java.util.TreeMap<>(
                Map.of(1L, reflecting(checker, c, 1), 2L, reflecting(checker, c, 2))),
            QueryAddressLayout.prefix());
    assertThat(v).isPresent();
    assertThat(v.get().kind()).isEqualTo(Violation.Kind.LOOP);
    assertThat(v.get().path()).anyMatch(p -> p.dpid() == 2).anyMatch(p -> p.dpid() == 1);
    assertThat(v.get().path().getLast()).isIn(v.get().path().subList(0, v.get().path().size() - 1));
    assertThat(v.get().toString()).startsWith("loop for ipv6_dst class of ff0e:").contains(" -> ");
    assertThat(v.get().region()).isNotBlank();
    assertThat(checker.snapshot()).isEqualTo(before);
    // one of them alone loops nothing: the other does not send the copy back
    assertThat(
            checker.checkRegion(Map.of(2L, reflecting(checker, c, 2)), QueryAddressLayout.prefix()))
        .isEmpty();
  }

  @Test
  void aLeafWithoutItsEntryIsABlackHole() {
    CamusTables c = tables();
    FlowInvariants checker = installed(c);
    List<FlowEntry> noEntry = new ArrayList<>(c.flows(4));
    noEntry.removeIf(f -> f.tableId() == 0);
    var before = checker.snapshot();
    Optional<Violation> v =
        checker.offerRegion(
            Map.of(4L, checker.changeTo(4, noEntry, c.groups(4))), QueryAddressLayout.prefix());
    assertThat(v).isPresent();
    assertThat(v.get().kind()).isEqualTo(Violation.Kind.BLACK_HOLE);
    assertThat(v.get().path().getLast().dpid()).isEqualTo(4);
    assertThat(checker.snapshot()).isEqualTo(before);
  }
}
