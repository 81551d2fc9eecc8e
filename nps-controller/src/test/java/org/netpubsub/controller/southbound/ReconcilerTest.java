package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowFlag;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupModCommand;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Match;

/** The reconcile plan's choices and order, case by case. */
class ReconcilerTest {
  static FlowEntry flow(String dst, int prio, Action... actions) {
    return FlowEntry.builder()
        .priority(prio)
        .match(Match.builder().ipv6().ipv6Dst(dst).build())
        .apply(actions)
        .build();
  }

  @Test
  void orderIsGroupsFlowsDeletesThenGroupDeletes() {
    GroupEntry g1 = GroupEntry.of(1, GroupType.ALL, Bucket.of(Action.output(1)));
    GroupEntry g2 = GroupEntry.of(2, GroupType.ALL, Bucket.of(Action.group(1), Action.output(2)));
    GroupEntry old = GroupEntry.of(9, GroupType.ALL, Bucket.of(Action.output(3)));
    FlowEntry keep = flow("ff0e::/16", 10, Action.output(1));
    FlowEntry add = flow("ff0e:1::/32", 20, Action.group(2));
    FlowEntry extra = flow("ff0e:2::/32", 20, Action.group(9));
    DesiredState desired = new DesiredState(List.of(keep, add), List.of(g2, g1));

    ReconcilePlan plan = Reconciler.plan(desired, List.of(keep, extra), List.of(old));
    assertThat(plan.mods())
        .containsExactly(
            SwitchMod.of(GroupMod.add(g1)), // named by g2's bucket: first
            SwitchMod.of(GroupMod.add(g2)),
            SwitchMod.of(FlowMod.add(add)),
            SwitchMod.of(FlowMod.deleteStrict(extra)),
            SwitchMod.of(GroupMod.delete(9)));
    assertThat(plan)
        .extracting(
            ReconcilePlan::groupsAdded,
            ReconcilePlan::flowsAdded,
            ReconcilePlan::flowsDeleted,
            ReconcilePlan::groupsDeleted)
        .containsExactly(2, 1, 1, 1);
  }

  @Test
  void instructionsAloneChangedIsAModifyStrictElseAnAddReplaces() {
    FlowEntry actual = flow("ff0e::/16", 10, Action.output(1));
    FlowEntry newActions = flow("ff0e::/16", 10, Action.output(2));
    ReconcilePlan p1 =
        Reconciler.plan(
            new DesiredState(List.of(newActions), List.of()), List.of(actual), List.of());
    assertThat(p1.mods()).hasSize(1);
    FlowMod m = ((SwitchMod.Flow) p1.mods().get(0)).mod();
    assertThat(m.command()).isEqualTo(FlowModCommand.MODIFY_STRICT);
    assertThat(m.toEntry()).isEqualTo(newActions);
    assertThat(p1.flowsModified()).isEqualTo(1);

    FlowEntry newCookie = newActions.toBuilder().cookie(5).build();
    ReconcilePlan p2 =
        Reconciler.plan(
            new DesiredState(List.of(newCookie), List.of()), List.of(actual), List.of());
    assertThat(p2.mods()).containsExactly(SwitchMod.of(FlowMod.add(newCookie)));
  }

  @Test
  void changedGroupIsModified() {
    GroupEntry before = GroupEntry.of(1, GroupType.ALL, Bucket.of(Action.output(1)));
    GroupEntry after = GroupEntry.of(1, GroupType.SELECT, Bucket.weighted(3, Action.output(2)));
    ReconcilePlan p =
        Reconciler.plan(new DesiredState(List.of(), List.of(after)), List.of(), List.of(before));
    assertThat(p.mods())
        .containsExactly(
            SwitchMod.of(
                new GroupMod(GroupModCommand.MODIFY, 1, GroupType.SELECT, after.buckets())));
  }

  @Test
  void anExtraFlowBlockingACheckOverlapAddIsDeletedFirst() {
    FlowEntry extra = flow("ff0e::/16", 10, Action.output(1));
    FlowEntry wanted =
        flow("ff0e:1::/32", 10, Action.output(2)).toBuilder().flag(FlowFlag.CHECK_OVERLAP).build();
    ReconcilePlan p =
        Reconciler.plan(new DesiredState(List.of(wanted), List.of()), List.of(extra), List.of());
    assertThat(p.mods())
        .containsExactly(
            SwitchMod.of(FlowMod.deleteStrict(extra)), SwitchMod.of(FlowMod.add(wanted)));
    var sw = ReconcilerProperties.switchWith(List.of(extra), List.of());
    p.mods().forEach(m -> assertThat(ReconcilerProperties.apply(sw, m)).isEmpty());
    assertThat(sw.flows()).containsExactly(wanted);
  }

  @Test
  void desiredStateMustBeConsistent() {
    FlowEntry f = flow("ff0e::/16", 10, Action.group(4));
    assertThatThrownBy(() -> new DesiredState(List.of(f), List.of()))
        .hasMessageContaining("names group 4");
    assertThatThrownBy(() -> new DesiredState(List.of(f, f), List.of()))
        .hasMessageContaining("two desired flows");
    GroupEntry g = GroupEntry.of(1, GroupType.ALL);
    assertThatThrownBy(() -> new DesiredState(List.of(), List.of(g, g)))
        .hasMessageContaining("two desired groups");
  }
}
