package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventText;
import org.netpubsub.content.index.ContentAddress;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nps index event}: an event's dz and its content address (PLEROMA §III-A). */
@Command(
    name = "event",
    mixinStandardHelpOptions = true,
    description = "Print the dz-expression and the IPv6 content address of an event.")
final class IndexEventCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Mixin IndexOptions options;

  @Parameters(
      arity = "1..*",
      paramLabel = "NAME=VALUE",
      description = "A value for every attribute of the schema.")
  List<String> assignments;

  @Override
  public Integer call() {
    SpatialIndex index = options.spatialIndex();
    Schema s = index.schema();
    Map<String, Object> result = describe(index, EventText.fromAssignments(s, assignments));
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      JsonOutput.printLine(out, result);
    } else {
      out.print(text(result));
      out.flush();
    }
    return 0;
  }

  /** The JSON object: dz bits, its length, the event's address. */
  static Map<String, Object> describe(SpatialIndex index, Event event) {
    Dz dz = index.dz(event);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dz", dz.bits());
    m.put("length", dz.length());
    m.put("address", ContentAddress.of(dz).addressString());
    return m;
  }

  static String text(Map<String, Object> described) {
    return "dz       "
        + described.get("dz")
        + " ("
        + described.get("length")
        + " bits)\naddress  "
        + described.get("address")
        + "\n";
  }
}
