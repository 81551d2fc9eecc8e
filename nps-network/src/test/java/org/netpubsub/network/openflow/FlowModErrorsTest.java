package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Every error the simulated switch answers to a flow-mod, and that a refused message changes
 * nothing.
 */
class FlowModErrorsTest {
  private final SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2).numTables(4).build();

  private void refused(FlowMod fm, OpenFlowError error) {
    assertThat(sw.apply(fm)).as("%s", fm).contains(error);
    assertThat(sw.flows()).isEmpty();
  }

  private static FlowMod.Builder add() {
    return FlowMod.builder(FlowModCommand.ADD);
  }

  @Test
  void badTableIds() {
    refused(add().table(FlowMod.ALL_TABLES).build(), OpenFlowError.OFPFMFC_BAD_TABLE_ID);
    refused(add().table(4).build(), OpenFlowError.OFPBRC_BAD_TABLE_ID);
    refused(
        FlowMod.builder(FlowModCommand.DELETE).table(7).build(), OpenFlowError.OFPBRC_BAD_TABLE_ID);
    assertThat(sw.apply(add().table(3).build())).isEmpty();
  }

  @Test
  void gotoOnlyForwardAndToExistingTables() {
    refused(add().table(2).gotoTable(2).build(), OpenFlowError.OFPBIC_BAD_TABLE_ID);
    refused(add().table(2).gotoTable(1).build(), OpenFlowError.OFPBIC_BAD_TABLE_ID);
    refused(add().table(2).gotoTable(4).build(), OpenFlowError.OFPBIC_BAD_TABLE_ID);
    assertThat(sw.apply(add().table(2).gotoTable(3).build())).isEmpty();
  }

  @Test
  void matchPrerequisitesAndValues() {
    Match noEthType = Match.builder().ipv6Dst("ff0e::/16").build();
    refused(add().match(noEthType).build(), OpenFlowError.OFPBMC_BAD_PREREQ);
    refused(
        FlowMod.builder(FlowModCommand.DELETE).match(noEthType).build(),
        OpenFlowError.OFPBMC_BAD_PREREQ);
    refused(add().match(Match.builder().inPort(0).build()).build(), OpenFlowError.OFPBMC_BAD_VALUE);
    refused(
        add().match(Match.builder().inPort(OfPort.ANY).build()).build(),
        OpenFlowError.OFPBMC_BAD_VALUE);
  }

  @Test
  void setFieldNeedsItsPrerequisitesInTheMatch() {
    Action setDst = new Action.SetIpv6Dst(Ipv6Address.parse("ff0e::1"));
    refused(add().apply(setDst).build(), OpenFlowError.OFPBAC_MATCH_INCONSISTENT);
    refused(add().write(setDst).build(), OpenFlowError.OFPBAC_MATCH_INCONSISTENT);
    Match ipv6 = Match.builder().ipv6().build();
    refused(
        add().match(ipv6).apply(new Action.SetUdpDst(5)).build(),
        OpenFlowError.OFPBAC_MATCH_INCONSISTENT);
    assertThat(sw.apply(add().match(ipv6).apply(setDst).build())).isEmpty();
    Match udp6 = Match.builder().udp6().build();
    assertThat(sw.apply(add().match(udp6).write(new Action.SetUdpSrc(5)).build())).isEmpty();
  }

  @Test
  void outputPortsMustBeRealOrImplementedReservedPorts() {
    for (long port : new long[] {0, OfPort.MAX, OfPort.NORMAL, OfPort.TABLE, OfPort.ANY}) {
      refused(add().apply(Action.output(port)).build(), OpenFlowError.OFPBAC_BAD_OUT_PORT);
    }
    for (long port :
        new long[] {7, OfPort.IN_PORT, OfPort.ALL, OfPort.FLOOD, OfPort.CONTROLLER, OfPort.LOCAL}) {
      assertThat(sw.apply(add().priority((int) (port & 0xff)).apply(Action.output(port)).build()))
          .isEmpty();
    }
  }

  @Test
  void groupsMustExistAndBeNamedOnce() {
    refused(add().apply(Action.group(1)).build(), OpenFlowError.OFPBAC_BAD_OUT_GROUP);
    refused(add().write(Action.group(1)).build(), OpenFlowError.OFPBAC_BAD_OUT_GROUP);
    assertThat(sw.apply(GroupMod.add(GroupEntry.of(1, GroupType.ALL)))).isEmpty();
    // OVS 3.1.0 crashes deleting a group that one flow names twice: refused here.
    refused(
        add().apply(Action.group(1), Action.group(1)).build(), OpenFlowError.OFPBAC_BAD_OUT_GROUP);
    refused(
        add().apply(Action.group(1)).write(Action.group(1)).build(),
        OpenFlowError.OFPBAC_BAD_OUT_GROUP);
    assertThat(sw.apply(add().apply(Action.group(1)).build())).isEmpty();
  }

  @Test
  void noPacketBuffers() {
    refused(add().bufferId(7).build(), OpenFlowError.OFPBRC_BUFFER_UNKNOWN);
  }

  @Test
  void errorsCarryOpenFlowNumbers() {
    assertThat(OpenFlowError.OFPBAC_BAD_OUT_GROUP.typeNumber()).isEqualTo(2);
    assertThat(OpenFlowError.OFPBAC_BAD_OUT_GROUP.code()).isEqualTo(9);
    assertThat(OpenFlowError.OFPBMC_BAD_PREREQ.type().specName()).isEqualTo("OFPET_BAD_MATCH");
    assertThat(OpenFlowError.of(6, 8)).contains(OpenFlowError.OFPGMFC_UNKNOWN_GROUP);
    assertThat(OpenFlowError.of(6, 99)).isEmpty();
    assertThat(OpenFlowError.OFPFMFC_OVERLAP)
        .hasToString("OFPET_FLOW_MOD_FAILED/OFPFMFC_OVERLAP (5,3)");
  }
}
