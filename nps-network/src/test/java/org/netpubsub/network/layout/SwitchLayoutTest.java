package org.netpubsub.network.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.camus.openflow.OpenFlowPipeline;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.EventEgress;
import org.netpubsub.network.pleroma.IngressDrops;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The switch layout: no two owners' spaces meet, every app's constant is the layout's, and the
 * flows and groups each app emits lie in its owner's space (so the flow service, which refuses mods
 * outside it, never refuses one of them).
 */
class SwitchLayoutTest {
  @Test
  void noTwoOwnersSpacesOverlap() {
    List<FlowSpace> spaces = SwitchLayout.spaces();
    assertThat(spaces).extracting(FlowSpace::owner).containsExactly(Owner.values());
    for (int i = 0; i < spaces.size(); i++) {
      for (int j = 0; j < spaces.size(); j++) {
        assertThat(spaces.get(i).overlaps(spaces.get(j)))
            .as("%s and %s", spaces.get(i).owner(), spaces.get(j).owner())
            .isEqualTo(i == j);
      }
    }
  }

  @Test
  void overlapIsFoundWhereTablesPrioritiesAndCookiesMeet() {
    FlowSpace content = SwitchLayout.space(Owner.PUBSUB_CONTENT);
    FlowSpace clash =
        new FlowSpace(
            Owner.NORTHBOUND_APPS,
            SwitchLayout.CONTENT_COOKIE,
            -1L,
            List.of(new FlowSpace.Band(0, 0, 20_050, 20_050)),
            1,
            0);
    assertThat(clash.overlaps(content)).isTrue();
    FlowSpace otherCookie = new FlowSpace(Owner.NORTHBOUND_APPS, 7, -1L, clash.bands(), 1, 0);
    assertThat(otherCookie.overlaps(content)).isFalse();
    FlowSpace groups =
        new FlowSpace(Owner.NORTHBOUND_APPS, 7, -1L, List.of(), 0x5e00_0010L, 0x5e00_0010L);
    assertThat(groups.overlaps(SwitchLayout.space(Owner.MULTICAST_GROUPS))).isTrue();
  }

  @Test
  void everyAppsConstantComesFromTheLayout() {
    assertThat(UnicastRouting.TABLE).isEqualTo(SwitchLayout.TABLE_0);
    assertThat(UnicastRouting.COOKIE).isEqualTo(SwitchLayout.BASE_COOKIE);
    assertThat(UnicastRouting.PRIORITY_LLDP).isEqualTo(SwitchLayout.PRIORITY_LLDP);
    assertThat(UnicastRouting.PRIORITY_ND).isEqualTo(SwitchLayout.PRIORITY_ND);
    assertThat(UnicastRouting.PRIORITY_UNICAST).isEqualTo(SwitchLayout.PRIORITY_UNICAST);
    assertThat(UnicastRouting.PRIORITY_MISS).isEqualTo(SwitchLayout.PRIORITY_MISS);
    assertThat(ContentFlows.TABLE).isEqualTo(SwitchLayout.TABLE_0);
    assertThat(ContentFlows.COOKIE).isEqualTo(SwitchLayout.CONTENT_COOKIE);
    assertThat(ContentFlows.PRIORITY_BASE).isEqualTo(SwitchLayout.CONTENT_PRIORITY_BASE);
    assertThat(GroupForwarding.COOKIE).isEqualTo(SwitchLayout.MULTICAST_COOKIE);
    assertThat(GroupForwarding.PRIORITY_SEGMENT).isEqualTo(SwitchLayout.PRIORITY_SEGMENT);
    assertThat(GroupForwarding.PRIORITY_SEGMENT_ROUTE)
        .isEqualTo(SwitchLayout.PRIORITY_SEGMENT_ROUTE);
    assertThat(GroupForwarding.GROUP_BASE).isEqualTo(SwitchLayout.MULTICAST_GROUP_BASE);
    OpenFlowPipeline.Config c = OpenFlowPipeline.Config.ports(1, SwitchLayout.CAMUS_COOKIE, 7073);
    assertThat(c.entryPriority()).isEqualTo(SwitchLayout.CAMUS_ENTRY_PRIORITY);
    assertThat(c.groupBase()).isEqualTo(SwitchLayout.CAMUS_GROUP_BASE);
    // the values the switches, the test bed and the docs know: unchanged
    assertThat(SwitchLayout.BASE_COOKIE).isEqualTo(0x4e50530000000001L);
    assertThat(SwitchLayout.CONTENT_COOKIE).isEqualTo(0x4e50530000000002L);
    assertThat(SwitchLayout.CAMUS_COOKIE).isEqualTo(0x4e50530000000003L);
    assertThat(SwitchLayout.MULTICAST_COOKIE).isEqualTo(0x4e50530000000005L);
    assertThat(IngressDrops.COOKIE).isEqualTo(SwitchLayout.INGRESS_COOKIE);
    assertThat(IngressDrops.PRIORITY).isEqualTo(SwitchLayout.PRIORITY_INGRESS_DROP);
  }

  @Test
  void ingressDropsLieInTheIngressSpace() {
    List<FlowEntry> drops = IngressDrops.entries(3, DzSet.of(Dz.parse("0110")));
    assertThat(drops).hasSize(4);
    drops.forEach(f -> assertThat(SwitchLayout.ownerOf(f)).as("%s", f).contains(Owner.INGRESS));
  }

  @Test
  void baseForwardingAndDiscoveryFlowsLieInTheirSpaces() {
    Topology t = TestTopologies.linear(3);
    for (FlowEntry f : UnicastRouting.controlFlows()) {
      assertThat(SwitchLayout.ownerOf(f)).as("%s", f).contains(Owner.DISCOVERY);
    }
    List<FlowEntry> routed = new ArrayList<>();
    UnicastRouting.desiredFlows(t).values().forEach(routed::addAll);
    UnicastRouting.reactiveFlows(t).values().forEach(routed::addAll);
    routed.removeAll(UnicastRouting.controlFlows());
    assertThat(routed).isNotEmpty();
    for (FlowEntry f : routed) {
      assertThat(SwitchLayout.ownerOf(f)).as("%s", f).contains(Owner.BASE_FORWARDING);
    }
  }

  @Test
  void contentFlowsOfEveryDzLengthLieInTheContentSpace() {
    for (Dz dz : List.of(Dz.parse(""), Dz.parse("1".repeat(SwitchLayout.MAX_DZ_LENGTH)))) {
      FlowEntry f =
          ContentFlows.entry(dz, new TreeSet<EventEgress>(List.of(EventEgress.towardsSwitch(1))));
      assertThat(SwitchLayout.ownerOf(f)).as("%s", f).contains(Owner.PUBSUB_CONTENT);
    }
  }

  @Test
  void multicastFlowsAndGroupsLieInTheMulticastSpace() {
    Topology t = TestTopologies.linear(3);
    GroupForwarding g = new GroupForwarding(t);
    var hosts = new TreeSet<>(t.hosts().keySet());
    g.put(GroupSpec.of("g", hosts, java.util.Set.of(hosts.first()), TreeStrategy.DIRECT));
    FlowSpace space = SwitchLayout.space(Owner.MULTICAST_GROUPS);
    List<FlowEntry> flows = new ArrayList<>();
    List<GroupEntry> groups = new ArrayList<>();
    t.switches().forEach(d -> flows.addAll(g.flows(d)));
    t.switches().forEach(d -> groups.addAll(g.groups(d)));
    assertThat(flows).isNotEmpty();
    assertThat(groups).isNotEmpty();
    flows.forEach(f -> assertThat(SwitchLayout.ownerOf(f)).contains(Owner.MULTICAST_GROUPS));
    groups.forEach(e -> assertThat(space.containsGroup(e.groupId())).as("%s", e).isTrue());
  }

  @Test
  void aFlowOutsideEverySpaceHasNoOwner() {
    FlowEntry stray =
        FlowEntry.builder()
            .table(0)
            .priority(40_000)
            .cookie(SwitchLayout.NPS_TAG | 9)
            .match(Match.ANY)
            .build();
    assertThat(SwitchLayout.ownerOf(stray)).isEmpty();
    FlowEntry app = stray.toBuilder().cookie(0).build();
    assertThat(SwitchLayout.ownerOf(app)).contains(Owner.NORTHBOUND_APPS);
  }
}
