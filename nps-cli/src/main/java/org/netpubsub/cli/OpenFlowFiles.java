package org.netpubsub.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.network.camus.openflow.OpenFlowPipeline;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.OvsFlowSyntax;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * {@code nps compile --target openflow --out DIR}: {@code flows.txt} and {@code groups.txt} in the
 * syntax of {@code ovs-ofctl -O OpenFlow13 add-flows / add-groups}, and {@code layout.json}, where
 * each query field sits in the IPv6 destination.
 */
final class OpenFlowFiles {
  static final long COOKIE = SwitchLayout.CAMUS_COOKIE;
  static final int EVENT_PORT = ContentFlows.EVENT_PORT;

  private OpenFlowFiles() {}

  static void write(Compilation c, Path dir) throws IOException {
    QueryAddressLayout layout = QueryAddressLayout.of(c.spec());
    var conditional = c.conditionalActions();
    OpenFlowPipeline.Config ports =
        OpenFlowPipeline.Config.ports(SwitchLayout.CAMUS_FIRST_TABLE, COOKIE, EVENT_PORT);
    // OpenFlow cannot keep aggregates: a conditional action forwards to its port (a superset)
    OpenFlowPipeline of =
        new OpenFlowPipeline(
            layout,
            new OpenFlowPipeline.Config(
                ports.entryPriority(),
                ports.firstTable(),
                ports.stateBits(),
                ports.cookie(),
                ports.groupBase(),
                ports.eventPort(),
                a -> List.of(Action.output(conditional.portOf(a))),
                -1,
                List.of()));
    Files.write(
        dir.resolve("flows.txt"),
        of.flows(c.pipeline()).stream().map(OvsFlowSyntax::flow).toList());
    Files.write(
        dir.resolve("groups.txt"),
        of.groups(c.pipeline()).stream().map(OvsFlowSyntax::group).toList());
    List<Object> fields = new ArrayList<>();
    for (int f = 0; f < layout.carried().fields().size(); f++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("field", layout.carried().field(f).name());
      m.put("first_bit", layout.offset(f));
      m.put("bits", layout.carried().field(f).width());
      fields.add(m);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("prefix", "ff0e::/16");
    m.put("udp_dst", EVENT_PORT);
    m.put("fields", fields);
    m.put("first_table", 1);
    m.put("leaf_table", of.leafTable());
    Files.writeString(
        dir.resolve("layout.json"),
        JsonOutput.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(m),
        StandardCharsets.UTF_8);
  }
}
