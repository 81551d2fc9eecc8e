package org.netpubsub.network.camus.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.network.layout.FlowSpace;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;

/** The Camus pipeline's flows and groups, and the deletes of its flows, lie in its layout space. */
class OpenFlowPipelineLayoutTest {
  static final QueryAddressLayout LAYOUT = OpenFlowPipelineTest.LAYOUT;

  @Test
  void camusFlowsAndGroupsLieInTheCamusSpace() {
    Compilation c =
        RuleCompiler.compile(
            LAYOUT.carried(), OpenFlowPipelineTest.rules(50, 1), CompileOptions.EXACT);
    OpenFlowPipeline of =
        new OpenFlowPipeline(
            LAYOUT,
            OpenFlowPipeline.Config.ports(
                    SwitchLayout.CAMUS_FIRST_TABLE, SwitchLayout.CAMUS_COOKIE, 7073)
                .withUp(0, List.of(7L, 8L)));
    FlowSpace space = SwitchLayout.space(Owner.CAMUS_PIPELINE);
    assertThat(of.flows(c.pipeline())).isNotEmpty();
    for (FlowEntry f : of.flows(c.pipeline())) {
      assertThat(SwitchLayout.ownerOf(f)).as("%s", f).contains(Owner.CAMUS_PIPELINE);
      assertThat(space.contains(FlowMod.deleteStrict(f))).isTrue();
    }
    for (GroupEntry g : of.groups(c.pipeline())) {
      assertThat(space.containsGroup(g.groupId())).as("%s", g).isTrue();
    }
  }
}
