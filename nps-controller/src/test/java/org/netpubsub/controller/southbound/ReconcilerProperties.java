package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.OpenFlowError;
import org.netpubsub.network.openflow.SimulatedSwitch;

/**
 * Reconciliation against the simulated switch: random desired and actual states drawn from one
 * small space (so they share, differ in and lack flows and groups); the plan applied to a switch
 * holding the actual state succeeds message by message and leaves exactly the desired state; and it
 * is minimal: nothing for unchanged entries, nothing at all a second time.
 */
class ReconcilerProperties {

  static SimulatedSwitch switchWith(List<FlowEntry> flows, List<GroupEntry> groups) {
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4).build();
    for (GroupEntry g : groups) {
      assertThat(sw.apply(GroupMod.add(g))).isEmpty();
    }
    for (FlowEntry f : flows) {
      assertThat(sw.apply(FlowMod.add(f))).as("installing %s", f).isEmpty();
    }
    return sw;
  }

  static DesiredState randomState(RandomModel r) {
    List<GroupEntry> groups = r.installableGroups();
    return new DesiredState(
        r.installableFlows(12, groups.stream().map(GroupEntry::groupId).toList()), groups);
  }

  static Optional<OpenFlowError> apply(SimulatedSwitch sw, SwitchMod m) {
    return switch (m) {
      case SwitchMod.Flow f -> sw.apply(f.mod());
      case SwitchMod.Group g -> sw.apply(g.mod());
    };
  }

  @Property(tries = 500)
  void planTurnsActualIntoDesired(@ForAll long seed) {
    RandomModel r = new RandomModel(seed);
    DesiredState desired = randomState(r);
    DesiredState actual = randomState(r);
    SimulatedSwitch sw = switchWith(actual.flows(), actual.groups());

    ReconcilePlan plan = Reconciler.plan(desired, sw.flows(), sw.groups());
    for (SwitchMod m : plan.mods()) {
      assertThat(apply(sw, m)).as("switch refused %s", m).isEmpty();
    }
    assertThat(sw.flows()).containsExactlyInAnyOrderElementsOf(desired.flows());
    assertThat(sw.groups()).containsExactlyInAnyOrderElementsOf(desired.groups());
    assertThat(Reconciler.plan(desired, sw.flows(), sw.groups()).mods())
        .as("a second plan")
        .isEmpty();

    // Minimal: one message per flow or group that is missing, different or extra.
    long flowChanges =
        desired.flows().stream().filter(d -> !actual.flows().contains(d)).count()
            + actual.flows().stream()
                .filter(
                    a ->
                        desired.flows().stream()
                            .noneMatch(
                                d -> Reconciler.FlowKey.of(d).equals(Reconciler.FlowKey.of(a))))
                .count();
    long groupChanges =
        desired.groups().stream().filter(d -> !actual.groups().contains(d)).count()
            + actual.groups().stream()
                .filter(a -> desired.groups().stream().noneMatch(d -> d.groupId() == a.groupId()))
                .count();
    assertThat(plan.mods()).hasSize((int) (flowChanges + groupChanges));
    assertThat(plan.flowsAdded() + plan.flowsModified() + plan.flowsDeleted())
        .isEqualTo(flowChanges);
  }

  @Property(tries = 200)
  void reconcilingWithItselfSendsNothing(@ForAll long seed) {
    DesiredState s = randomState(new RandomModel(seed));
    SimulatedSwitch sw = switchWith(s.flows(), s.groups());
    assertThat(Reconciler.plan(s, sw.flows(), sw.groups()).isEmpty()).isTrue();
  }
}
