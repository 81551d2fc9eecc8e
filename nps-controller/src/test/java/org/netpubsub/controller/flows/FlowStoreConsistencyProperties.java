package org.netpubsub.controller.flows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;

/**
 * {@link FlowStore#checkConsistent}, per change, refuses exactly the batches whose switch's whole
 * desired state would be inconsistent: its naive twin builds that state ({@link FlowStore#desired}
 * after the batch, in a store replayed from the accepted batches) and sees whether it is refused.
 */
class FlowStoreConsistencyProperties {
  private static final long DPID = FlowStoreTest.DPID;
  private static final long C0 = SwitchLayout.CAMUS_GROUP_BASE;
  private static final long C1 = SwitchLayout.CAMUS_GROUP_BASE + 1;
  private static final long M0 = SwitchLayout.MULTICAST_GROUP_BASE;
  private static final long[] IDS = {C0, C1, M0};

  private record Batch(Owner owner, List<SwitchMod> mods) {}

  @Example
  void aFlowNamingAMissingGroupOrAGroupStillNamedIsRefused() {
    FlowStore s = new FlowStore();
    FlowEntry f = flow("0", C0);
    List<SwitchMod> addFlow = List.of(SwitchMod.of(FlowMod.add(f)));
    assertThatThrownBy(() -> check(s, Owner.PUBSUB_CONTENT, addFlow))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names group " + C0 + ", which the desired state lacks");
    List<SwitchMod> addGroup = List.of(SwitchMod.of(GroupMod.add(group(C0, -1))));
    check(s, Owner.CAMUS_PIPELINE, addGroup);
    s.apply(Owner.CAMUS_PIPELINE, DPID, addGroup);
    check(s, Owner.PUBSUB_CONTENT, addFlow);
    s.apply(Owner.PUBSUB_CONTENT, DPID, addFlow);
    List<SwitchMod> deleteGroup = List.of(SwitchMod.of(GroupMod.delete(C0)));
    assertThatThrownBy(() -> check(s, Owner.CAMUS_PIPELINE, deleteGroup))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("flow ")
        .hasMessageContaining("names group " + C0);
  }

  @Property(tries = 150)
  void refusesExactlyWhatTheWholeDesiredStateRefuses(@ForAll long seed) {
    Random r = new Random(seed);
    FlowStore store = new FlowStore();
    List<Batch> accepted = new ArrayList<>();
    for (int step = 0; step < 30; step++) {
      Batch b = batch(r);
      boolean refused;
      try {
        check(store, b.owner(), b.mods());
        refused = false;
      } catch (IllegalArgumentException e) {
        refused = true;
      }
      FlowStore twin = new FlowStore();
      accepted.forEach(a -> twin.apply(a.owner(), DPID, a.mods()));
      twin.apply(b.owner(), DPID, b.mods());
      boolean twinRefused;
      try {
        twin.desired(DPID);
        twinRefused = false;
      } catch (IllegalArgumentException e) {
        twinRefused = true;
      }
      assertThat(refused).as("step %d: %s", step, b).isEqualTo(twinRefused);
      if (!refused) {
        store.apply(b.owner(), DPID, b.mods());
        accepted.add(b);
      }
    }
  }

  private static void check(FlowStore s, Owner owner, List<SwitchMod> mods) {
    s.checkConsistent(owner, DPID, s.change(owner, DPID, mods));
  }

  private static Batch batch(Random r) {
    List<SwitchMod> mods = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    switch (r.nextInt(3)) {
      case 0 -> {
        for (int i = 0; i < n; i++) {
          FlowEntry f = flow(List.of("0", "1", "10").get(r.nextInt(3)), pick(r));
          mods.add(SwitchMod.of(r.nextInt(3) == 0 ? FlowMod.deleteStrict(f) : FlowMod.add(f)));
        }
        return new Batch(Owner.PUBSUB_CONTENT, mods);
      }
      case 1 -> {
        for (int i = 0; i < n; i++) {
          long id = r.nextBoolean() ? C0 : C1;
          mods.add(
              SwitchMod.of(
                  r.nextInt(3) == 0
                      ? GroupMod.delete(id)
                      : GroupMod.add(group(id, r.nextBoolean() ? M0 : -1))));
        }
        return new Batch(Owner.CAMUS_PIPELINE, mods);
      }
      default -> {
        mods.add(
            SwitchMod.of(r.nextInt(3) == 0 ? GroupMod.delete(M0) : GroupMod.add(group(M0, -1))));
        return new Batch(Owner.MULTICAST_GROUPS, mods);
      }
    }
  }

  /** A group id to name, or -1 for an output. */
  private static long pick(Random r) {
    int i = r.nextInt(IDS.length + 1);
    return i == IDS.length ? -1 : IDS[i];
  }

  private static FlowEntry flow(String dz, long group) {
    FlowEntry out = FlowStoreTest.content(dz, 1);
    if (group < 0) {
      return out;
    }
    return FlowEntry.builder()
        .table(out.tableId())
        .priority(out.priority())
        .cookie(out.cookie())
        .match(out.match())
        .apply(Action.group(group))
        .build();
  }

  private static GroupEntry group(long id, long next) {
    Bucket b = next < 0 ? Bucket.of(Action.output(2)) : Bucket.of(Action.group(next));
    return new GroupEntry(id, GroupType.ALL, List.of(b));
  }
}
