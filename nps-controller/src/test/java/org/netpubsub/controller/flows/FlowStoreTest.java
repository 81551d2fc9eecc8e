package org.netpubsub.controller.flows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * The flow service's store: deltas and replacements per owner, the desired state in the order the
 * owners first wrote, and a batch with a mod outside its owner's layout space refused whole.
 */
class FlowStoreTest {
  static final long DPID = 7;

  static FlowEntry content(String dz, long port) {
    return FlowEntry.builder()
        .table(ContentFlows.TABLE)
        .priority(ContentFlows.priority(Dz.parse(dz)))
        .cookie(ContentFlows.COOKIE)
        .match(ContentFlows.match(Dz.parse(dz)))
        .apply(Action.output(port))
        .build();
  }

  @Test
  void deltasAddReplaceAndDeleteByTablePriorityAndMatch() {
    FlowStore s = new FlowStore();
    FlowEntry a = content("0", 1);
    FlowEntry b = content("1", 2);
    s.apply(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(FlowMod.add(a), FlowMod.add(b))));
    assertThat(s.desired(DPID).flows()).containsExactly(a, b);
    FlowEntry a2 = content("0", 3); // the same dz's flow with other actions replaces it
    s.apply(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(FlowMod.add(a2))));
    s.apply(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(FlowMod.deleteStrict(b))));
    assertThat(s.desired(DPID).flows()).containsExactly(a2);
    assertThat(s.desired(DPID + 1).flows()).isEmpty();
  }

  @Test
  void aNonStrictDeleteTakesEveryEntryItSelectsAsASwitchDoes() {
    FlowStore s = new FlowStore();
    FlowEntry a = content("0", 1);
    FlowEntry b = content("10", 2);
    FlowEntry other = // the same dz on the other event port (the other layout of a switch)
        a.toBuilder()
            .match(a.match().toBuilder().udpDst(ContentFlows.EVENT_PORT + 1).build())
            .build();
    s.apply(
        Owner.PUBSUB_CONTENT,
        DPID,
        SwitchMod.flows(List.of(FlowMod.add(a), FlowMod.add(b), FlowMod.add(other))));
    FlowMod onPort =
        FlowMod.builder(FlowModCommand.DELETE)
            .table(ContentFlows.TABLE)
            .priority(ContentFlows.PRIORITY_BASE)
            .cookie(ContentFlows.COOKIE, -1L)
            .match(Match.builder().udp6().udpDst(ContentFlows.EVENT_PORT).build())
            .build();
    FlowInvariants.Change c =
        s.change(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(onPort)));
    assertThat(c.removed()).containsExactlyInAnyOrder(a, b);
    assertThat(c.added()).isEmpty();
    s.apply(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(onPort)));
    assertThat(s.desired(DPID).flows()).containsExactly(other);
  }

  @Test
  void groupModsKeepTheOwnersGroups() {
    FlowStore s = new FlowStore();
    long id = SwitchLayout.CAMUS_GROUP_BASE + 4;
    GroupEntry g = new GroupEntry(id, GroupType.ALL, List.of(Bucket.of(Action.output(1))));
    GroupEntry g2 = new GroupEntry(id, GroupType.ALL, List.of(Bucket.of(Action.output(2))));
    s.apply(Owner.CAMUS_PIPELINE, DPID, List.of(new SwitchMod.Group(GroupMod.add(g))));
    s.apply(Owner.CAMUS_PIPELINE, DPID, List.of(new SwitchMod.Group(GroupMod.modify(g2))));
    assertThat(s.desired(DPID).groups()).containsExactly(g2);
    s.apply(Owner.CAMUS_PIPELINE, DPID, List.of(new SwitchMod.Group(GroupMod.delete(id))));
    assertThat(s.desired(DPID).groups()).isEmpty();
  }

  @Test
  void theDesiredStateListsOwnersInTheOrderTheyRegistered() {
    FlowStore s = new FlowStore();
    s.register(Owner.DISCOVERY);
    s.register(Owner.PUBSUB_CONTENT);
    FlowEntry c = content("", 1);
    s.apply(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(FlowMod.add(c))));
    assertThat(s.replace(Owner.DISCOVERY, DPID, UnicastRouting.controlFlows(), List.of())).isTrue();
    assertThat(s.replace(Owner.DISCOVERY, DPID, UnicastRouting.controlFlows(), List.of()))
        .as("the same entries again change nothing")
        .isFalse();
    assertThat(s.desired(DPID).flows())
        .endsWith(c)
        .startsWith(UnicastRouting.controlFlows().get(0));
    assertThat(s.flows(Owner.PUBSUB_CONTENT, DPID)).containsExactly(c);
  }

  @Test
  void aBatchWithAModOutsideItsOwnersSpaceIsRefusedWhole() {
    FlowStore s = new FlowStore();
    FlowEntry ok = content("0", 1);
    // a content flow written as base forwarding: its cookie and priority are another owner's
    List<SwitchMod> batch = SwitchMod.flows(List.of(FlowMod.add(ok)));
    assertThatThrownBy(() -> s.apply(Owner.BASE_FORWARDING, DPID, batch))
        .isInstanceOf(FlowRefusedException.class)
        .hasMessageContaining("BASE_FORWARDING")
        .hasMessageContaining("switch 7");
    // the content owner above its band (priority of an LLDP entry), after a good mod
    FlowEntry high = ok.toBuilder().priority(SwitchLayout.PRIORITY_LLDP).build();
    List<SwitchMod> mixed = SwitchMod.flows(List.of(FlowMod.add(ok), FlowMod.add(high)));
    assertThatThrownBy(() -> s.apply(Owner.PUBSUB_CONTENT, DPID, mixed))
        .isInstanceOf(FlowRefusedException.class)
        .hasMessageContaining("priority=60000");
    assertThat(s.desired(DPID).flows()).as("nothing of a refused batch").isEmpty();
    // a strict delete of another owner's entry, and a group outside the owner's ids
    List<SwitchMod> delete =
        SwitchMod.flows(List.of(FlowMod.deleteStrict(UnicastRouting.controlFlows().get(0))));
    assertThatThrownBy(() -> s.apply(Owner.PUBSUB_CONTENT, DPID, delete))
        .isInstanceOf(FlowRefusedException.class);
    GroupEntry multicast =
        new GroupEntry(SwitchLayout.MULTICAST_GROUP_BASE, GroupType.ALL, List.of());
    assertThatThrownBy(
            () ->
                s.apply(
                    Owner.CAMUS_PIPELINE,
                    DPID,
                    List.of(new SwitchMod.Group(GroupMod.add(multicast)))))
        .isInstanceOf(FlowRefusedException.class);
    assertThatThrownBy(() -> s.replace(Owner.MULTICAST_GROUPS, DPID, List.of(ok), List.of()))
        .isInstanceOf(FlowRefusedException.class);
    assertThat(s.desired(DPID).flows()).isEmpty();
    assertThat(s.desired(DPID).groups()).isEmpty();
  }

  @Test
  void aBatchsChangeIsItsNetEffectOnTheOwnersEntries() {
    FlowStore s = new FlowStore();
    FlowEntry a = content("0", 1);
    FlowEntry b = content("1", 2);
    s.apply(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(FlowMod.add(a), FlowMod.add(b))));
    FlowEntry a2 = content("0", 3);
    FlowEntry c = content("01", 1);
    List<SwitchMod> batch =
        SwitchMod.flows(
            List.of(
                FlowMod.add(a2), // modifies a
                FlowMod.deleteStrict(b),
                FlowMod.add(c),
                FlowMod.deleteStrict(c), // added and deleted: no change
                FlowMod.add(content("10", 1)),
                FlowMod.add(content("10", 2))));
    FlowInvariants.Change change = s.change(Owner.PUBSUB_CONTENT, DPID, batch);
    assertThat(change.removed()).containsExactlyInAnyOrder(a, b);
    assertThat(change.added()).containsExactlyInAnyOrder(a2, content("10", 2));
    assertThat(s.desired(DPID).flows()).as("nothing taken").containsExactly(a, b);
    // re-adding what is there changes nothing
    assertThat(
            s.change(Owner.PUBSUB_CONTENT, DPID, SwitchMod.flows(List.of(FlowMod.add(a))))
                .isEmpty())
        .isTrue();
    long id = SwitchLayout.CAMUS_GROUP_BASE + 4;
    GroupEntry g = new GroupEntry(id, GroupType.ALL, List.of(Bucket.of(Action.output(1))));
    FlowInvariants.Change groups =
        s.change(Owner.CAMUS_PIPELINE, DPID, List.of(new SwitchMod.Group(GroupMod.add(g))));
    assertThat(groups.groupsPut()).containsExactly(g);
    s.apply(Owner.CAMUS_PIPELINE, DPID, List.of(new SwitchMod.Group(GroupMod.add(g))));
    assertThat(
            s.change(Owner.CAMUS_PIPELINE, DPID, List.of(new SwitchMod.Group(GroupMod.delete(id))))
                .groupsRemoved())
        .containsExactly(id);
  }
}
