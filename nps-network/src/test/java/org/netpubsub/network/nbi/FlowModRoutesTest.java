package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;

class FlowModRoutesTest {
  static final MaskedIpv6 DST = MaskedIpv6.parse("2001:db8::2/128");

  static FlowEntry.Builder flow(Match m) {
    return FlowEntry.builder().priority(10).match(m);
  }

  static Match toDst() {
    return Match.builder().ipv6().ipv6Dst(DST).build();
  }

  @Test
  void oneOutputToAPhysicalPortIsARoute() {
    assertThat(FlowModRoutes.of(7, FlowMod.add(flow(toDst()).apply(Action.output(3)).build())))
        .contains(RouteChange.output(7, DST, 3));
  }

  @Test
  void deletingOrForwardingNowhereStopsTheRoute() {
    FlowEntry e = flow(toDst()).apply(Action.output(3)).build();
    assertThat(FlowModRoutes.of(7, FlowMod.deleteStrict(e))).contains(RouteChange.drop(7, DST));
    assertThat(FlowModRoutes.of(7, FlowMod.add(flow(toDst()).build())))
        .contains(RouteChange.drop(7, DST));
  }

  @Test
  void multicastReservedPortsAndFlowsWithoutADestinationAreNotRoutes() {
    assertThat(
            FlowModRoutes.of(
                7, FlowMod.add(flow(toDst()).apply(Action.output(1), Action.output(2)).build())))
        .isEmpty();
    assertThat(
            FlowModRoutes.of(
                7, FlowMod.add(flow(toDst()).apply(Action.output(OfPort.FLOOD)).build())))
        .isEmpty();
    assertThat(FlowModRoutes.of(7, FlowMod.add(flow(toDst()).apply(Action.group(5)).build())))
        .isEmpty();
    assertThat(
            FlowModRoutes.of(
                7,
                FlowMod.add(flow(Match.builder().ipv6().build()).apply(Action.output(3)).build())))
        .isEmpty();
  }
}
